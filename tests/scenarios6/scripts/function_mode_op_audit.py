"""Audit which torch functions a model calls, every few training steps.

The user wrote a small TorchFunctionMode that tallies the torch functions
called while it is active, and turns it on for one step out of every four to
keep an eye on what the model actually runs.
"""

from collections import Counter

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

torch.manual_seed(0)


class OpTally(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = Counter()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls[getattr(func, "__name__", str(func))] += 1
        return func(*args, **(kwargs or {}))


model = nn.Sequential(nn.Linear(24, 64), nn.LayerNorm(64), nn.GELU(), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def forward_loss(x, y):
    return F.cross_entropy(model(x), y)


x = torch.randn(32, 24)
y = torch.randint(0, 3, (32,))
tally = OpTally()

for step in range(9):
    if step % 4 == 1:
        with tally:
            loss = forward_loss(x, y)
    else:
        loss = forward_loss(x, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

print("functions seen:", dict(tally.calls.most_common(5)))
