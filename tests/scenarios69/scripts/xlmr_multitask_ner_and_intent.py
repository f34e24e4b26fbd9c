"""Joint intent detection + slot filling: two XLM-R heads over one shared encoder."""
import torch
from transformers import (
    XLMRobertaConfig,
    XLMRobertaForSequenceClassification,
    XLMRobertaForTokenClassification,
)

torch.manual_seed(0)

base = dict(
    vocab_size=500,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=80,
    pad_token_id=1,
)
intent_model = XLMRobertaForSequenceClassification(XLMRobertaConfig(num_labels=6, **base))
slot_model = XLMRobertaForTokenClassification(XLMRobertaConfig(num_labels=9, **base))
# share the encoder between the two tasks
slot_model.roberta = intent_model.roberta

params = {id(p): p for m in (intent_model, slot_model) for p in m.parameters()}
optimizer = torch.optim.AdamW(params.values(), lr=3e-4)


def compute_loss(model, batch):
    out = model(
        input_ids=batch["input_ids"],
        attention_mask=batch["attention_mask"],
        labels=batch["labels"],
    )
    return out.loss


compute_loss = torch.compile(compute_loss, backend="aot_eager")


def make_batch(task, bsz=8, seq=24):
    ids = torch.randint(3, 500, (bsz, seq))
    lengths = torch.randint(seq // 2, seq + 1, (bsz,))
    mask = (torch.arange(seq)[None, :] < lengths[:, None]).long()
    ids = ids.masked_fill(mask == 0, 1)
    if task == "intent":
        labels = torch.randint(0, 6, (bsz,))
    else:
        labels = torch.randint(0, 9, (bsz, seq)).masked_fill(mask == 0, -100)
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


intent_model.train()
slot_model.train()
schedule = ["intent", "slots"] * 4
for step, task in enumerate(schedule):
    model = intent_model if task == "intent" else slot_model
    loss = compute_loss(model, make_batch(task))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} task={task:6s} loss={loss.item():.4f}")
