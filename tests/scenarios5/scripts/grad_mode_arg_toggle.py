"""One compiled step function for both training and validation.

The user writes a single `run_batch(x, y, train)` that computes the loss and
uses `torch.set_grad_enabled(train)` so validation does not build a graph.
Each epoch trains on three batches and validates on two.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 48), nn.GELU(), nn.Linear(48, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def run_batch(x, y, train):
    with torch.set_grad_enabled(train):
        logits = model(x)
        return nn.functional.cross_entropy(logits, y)


data = [(torch.randn(16, 20), torch.randint(0, 3, (16,))) for _ in range(5)]
for epoch in range(3):
    for x, y in data[:3]:
        loss = run_batch(x, y, True)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val = sum(run_batch(x, y, False).item() for x, y in data[3:]) / 2
    print(f"epoch {epoch} val loss {val:.4f}")
