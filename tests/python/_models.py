"""Small real models for the activation-trace tests."""

import collections
import dataclasses

import torch
from torch import nn

Pair = collections.namedtuple("Pair", "hidden gate")


@dataclasses.dataclass
class BlockOutput:
    hidden_states: torch.Tensor
    attn_logits: torch.Tensor
    note: str = "not a tensor"


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.ln(x))))


class Net(nn.Module):
    """root, blocks, blocks.N.{ln,fc1,act,fc2}, head: 3 + 5 * blocks modules."""

    def __init__(self, d=8, blocks=2):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(blocks))
        self.head = nn.Linear(d, 4)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class Splitter(nn.Module):
    """Returns a named tuple, a dataclass, a dict and a nested list."""

    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        h = self.proj(x)
        return (
            Pair(h, torch.sigmoid(h)),
            BlockOutput(hidden_states=h * 2, attn_logits=h.sum(-1)),
            {"scale": h.abs().mean(), "flag": True},
            [h[:1], [h.t(), None]],
        )


class StructuredNet(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.split = Splitter(d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        pair, block, extra, nested = self.split(x)
        y = pair.hidden * pair.gate + block.hidden_states + block.attn_logits.unsqueeze(-1) * extra["scale"]
        return self.out(y + nested[0] + nested[1][0].t())


class SharedNet(nn.Module):
    """Calls the same Linear twice per forward."""

    def __init__(self, d=4):
        super().__init__()
        self.shared = nn.Linear(d, d)

    def forward(self, x):
        return self.shared(torch.relu(self.shared(x)))
