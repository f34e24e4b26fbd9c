import torch
from transformers import ElectraConfig, ElectraForSequenceClassification

torch.manual_seed(0)

VOCAB = 100

TASKS = {
    "sentiment": dict(num_labels=3, problem_type="single_label_classification"),
    "topics": dict(num_labels=5, problem_type="multi_label_classification"),
    "rating": dict(num_labels=1, problem_type="regression"),
}


def tiny_config(**kw):
    return ElectraConfig(
        vocab_size=VOCAB,
        embedding_size=32,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        **kw,
    )


models = {}
shared = None
for name, kw in TASKS.items():
    m = ElectraForSequenceClassification(tiny_config(**kw))
    if shared is None:
        shared = m.electra
    else:
        m.electra = shared
    models[name] = m

params = {p for m in models.values() for p in m.parameters()}
opt = torch.optim.AdamW(list(params), lr=3e-4)


def train_step(model, input_ids, attention_mask, labels):
    out = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    out.loss.backward()
    return out.loss.detach()


train_step = torch.compile(train_step, backend="aot_eager")


def make_batch(task, batch=8, seq=16):
    ids = torch.randint(5, VOCAB, (batch, seq))
    mask = torch.ones(batch, seq, dtype=torch.long)
    n = TASKS[task]["num_labels"]
    if task == "sentiment":
        labels = torch.randint(0, n, (batch,))
    elif task == "topics":
        labels = (torch.rand(batch, n) < 0.3).float()
    else:
        labels = torch.rand(batch) * 5.0
    return ids, mask, labels


for m in models.values():
    m.train()

for step in range(6):
    for task, model in models.items():
        ids, mask, labels = make_batch(task)
        loss = train_step(model, ids, mask, labels)
        opt.step()
        opt.zero_grad()
        if step % 2 == 0:
            print(f"step {step} {task} loss={loss.item():.4f}")
