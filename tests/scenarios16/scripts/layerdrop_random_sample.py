"""Deep transformer encoder trained with LayerDrop.

Each step we skip a random subset of the blocks (random.sample over the
layer indices), the way the LayerDrop paper trains; at eval all blocks run.
"""

import random

import torch
from torch import nn

random.seed(0)
torch.manual_seed(0)

DIM, LAYERS, DROP = 32, 6, 2


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(Block(DIM) for _ in range(LAYERS))
        self.head = nn.Linear(DIM, 5)

    def forward(self, x, skip=()):
        for i, blk in enumerate(self.blocks):
            if i in skip:
                continue
            x = blk(x)
        return self.head(x.mean(1))


model = Encoder()
fwd = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for step in range(6):
    x = torch.randn(16, 10, DIM)
    y = torch.randint(0, 5, (16,))
    skip = sorted(random.sample(range(LAYERS), DROP))
    loss = nn.functional.cross_entropy(fwd(x, skip), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} skipped {skip} loss {loss.item():.4f}")

with torch.no_grad():
    acc = (fwd(torch.randn(16, 10, DIM)).argmax(-1) == y).float().mean()
print(f"eval acc {acc.item():.3f}")
