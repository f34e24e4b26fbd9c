import torch
from torch import nn

torch.manual_seed(0)

model = nn.Linear(16, 1)


def weighted_loss(batch):
    pred = model(batch["x"]).squeeze(-1)
    err = (pred - batch["y"]).pow(2)
    if "weight" in batch:
        err = err * batch["weight"]
    return err.mean()


compiled_loss = torch.compile(weighted_loss, backend="aot_eager")

for step in range(5):
    batch = {"x": torch.randn(8, 16), "y": torch.randn(8)}
    if step in (2, 3):  # importance-weighted batches
        batch["weight"] = torch.rand(8)
    loss = compiled_loss(batch)
    loss.backward()
    print(f"step {step} keys {len(batch)} loss {loss.item():.4f}")
