"""Gradient accumulation over micro-batches with a compiled loss function.

The effective batch is 4 micro-batches; the loss of each micro-batch is
divided by the number of micro-batches in its accumulation window. The
dataset has 10 micro-batches per epoch, so the last window is shorter.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
ACCUM = 4


@torch.compile(backend="aot_eager")
def micro_loss(x, y, scale):
    logits = model(x)
    return nn.functional.cross_entropy(logits, y) * scale


data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(10)]

for epoch in range(2):
    total = 0.0
    for start in range(0, len(data), ACCUM):
        window = data[start:start + ACCUM]
        opt.zero_grad(set_to_none=True)
        for x, y in window:
            loss = micro_loss(x, y, 1.0 / len(window))
            loss.backward()
            total += loss.item()
        opt.step()
    print(f"epoch {epoch} loss {total / (len(data) / ACCUM):.4f}")

# quick sanity check on a held-out batch, outside the training loop
x_test, y_test = torch.randn(32, 16), torch.randint(0, 4, (32,))
with torch.no_grad():
    acc = (model(x_test).argmax(dim=-1) == y_test).float().mean().item()
print(f"held-out accuracy {acc:.3f}")
