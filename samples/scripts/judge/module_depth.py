"""module_depth: a model whose nn.ModuleList the code grows.

Frame `forward` of `Staged`: a residual MLP grown on purpose, one block per
stage (1, 2, 3 blocks), two steps each: each depth compiles once (0/1, 0/2).
Frame `forward` of `Runaway`, compiled separately: a block is appended on
every call, so each call compiles a new depth until the recompile limit.
"""
import torch
from torch import nn

torch.manual_seed(0)


class Staged(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(dim, dim)])

    def forward(self, x):
        for block in self.blocks:
            x = x + torch.relu(block(x))
        return x


class Runaway(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x.tanh()


staged = Staged()
compiled = torch.compile(staged, backend="aot_eager")
for stage in range(3):
    if stage > 0:
        staged.blocks.append(nn.Linear(16, 16))
    for step in range(2):
        compiled(torch.randn(4, 16))

runaway = Runaway()
run = torch.compile(runaway, backend="aot_eager")
for step in range(10):
    run(torch.randn(4, 16))
    runaway.layers.append(nn.Linear(16, 16))
