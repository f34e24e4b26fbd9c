import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


@torch.compile(backend="aot_eager")
def compute_loss(batch):
    logits = model(batch["features"])
    loss = nn.functional.cross_entropy(logits, batch["labels"], reduction="none")
    if "weights" in batch:
        loss = loss * batch["weights"]
    return loss.mean()


for step in range(4):
    batch = {"features": torch.randn(8, 16), "labels": torch.randint(0, 4, (8,))}
    if step >= 2:
        batch["weights"] = torch.rand(8)  # sample weights appear in later batches
    loss = compute_loss(batch)
    loss.backward()
    print(f"step {step} keys {sorted(batch)} loss {loss.item():.4f}")
