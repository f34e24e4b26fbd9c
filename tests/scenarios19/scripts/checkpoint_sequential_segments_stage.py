"""Deep residual MLP trained in stages with activation checkpointing.

The trunk is an nn.Sequential run through checkpoint_sequential; how many
segments it is cut into comes from the stage config.  Stage two is resumed
on a smaller GPU, so we checkpoint more finely to stay inside memory.
"""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 2), nn.SiLU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Trunk(nn.Module):
    def __init__(self, dim=32, depth=8, segments=2):
        super().__init__()
        self.inp = nn.Linear(16, dim)
        self.blocks = nn.Sequential(*[Block(dim) for _ in range(depth)])
        self.out = nn.Linear(dim, 1)
        self.segments = segments

    def forward(self, x):
        h = self.inp(x)
        h = checkpoint_sequential(self.blocks, self.segments, h, use_reentrant=False)
        return self.out(h).squeeze(-1)


stages = [
    {"name": "warmup", "epochs": 2, "window": 24, "segments": 2},
    {"name": "small-gpu", "epochs": 2, "window": 24, "segments": 4},
]

model = Trunk()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for stage in stages:
    model.segments = stage["segments"]
    for epoch in range(stage["epochs"]):
        for _ in range(3):
            x = torch.randn(16, stage["window"], 16)
            y = x.sum(-1)
            loss = nn.functional.mse_loss(compiled(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"{stage['name']} epoch {epoch} segments {model.segments} loss {loss.item():.4f}")
