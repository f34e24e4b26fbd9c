"""Gradient-statistics monitor: activation-gradient hooks on the blocks chosen for probing."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

grad_stats = {}


def record(name, grad):
    grad_stats.setdefault(name, []).append(grad.detach().norm().item())


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Linear(d, d)

    def forward(self, x):
        return x + F.gelu(self.ff(self.norm(x)))


class Net(nn.Module):
    def __init__(self, d=32, depth=3, n_cls=4):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))
        self.head = nn.Linear(d, n_cls)
        self.probe_blocks = []  # indices of blocks whose output gradient is logged

    def forward(self, x):
        for i, b in enumerate(self.blocks):
            x = b(x)
            if i in self.probe_blocks:
                x.register_hook(functools.partial(record, f"block{i}"))
        return self.head(x)


model = Net()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(8):
    if step == 3:  # start monitoring once the loss has settled a bit
        model.probe_blocks = [0, 2]
    if step == 6:  # narrow down to the first block only
        model.probe_blocks = [0]
    x = torch.randn(8, 32)
    y = torch.randint(0, 4, (8,))
    loss = F.cross_entropy(cmodel(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
for k, v in grad_stats.items():
    print(k, [round(n, 4) for n in v])
