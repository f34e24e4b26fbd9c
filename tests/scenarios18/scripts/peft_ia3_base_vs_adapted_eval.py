"""IA3 adapter on a small BERT classifier, with a side-by-side eval.

After each epoch we score the dev set twice: with the adapter scaling
switched off (the frozen base model) and on, to see how much the adapter
actually buys us.
"""

import torch
from peft import IA3Config, get_peft_model
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=500, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
    intermediate_size=128, max_position_embeddings=64, num_labels=3,
)
base = BertForSequenceClassification(config)
ia3 = IA3Config(
    task_type="SEQ_CLS",
    target_modules=["key", "value", "output.dense"],
    feedforward_modules=["output.dense"],
)
model = get_peft_model(base, ia3)
model.print_trainable_parameters()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-3)


def batch(n=8, seq=24):
    ids = torch.randint(1, 500, (n, seq))
    return ids, torch.ones_like(ids), torch.randint(0, 3, (n,))


train = [batch() for _ in range(3)]
dev = [batch() for _ in range(2)]


def evaluate():
    model.eval()
    correct = 0
    with torch.no_grad():
        for ids, mask, labels in dev:
            logits = compiled(input_ids=ids, attention_mask=mask).logits
            correct += (logits.argmax(-1) == labels).sum().item()
    return correct / 16


for epoch in range(2):
    model.train()
    for ids, mask, labels in train:
        out = compiled(input_ids=ids, attention_mask=mask, labels=labels)
        opt.zero_grad()
        out.loss.backward()
        opt.step()

    model.base_model.disable_adapter_layers()
    base_acc = evaluate()
    model.base_model.enable_adapter_layers()
    ia3_acc = evaluate()
    print(f"epoch {epoch} loss {out.loss.item():.4f} dev acc base {base_acc:.3f} ia3 {ia3_acc:.3f}")
