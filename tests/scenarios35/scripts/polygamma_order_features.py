"""Regress a noisy target with special-function features.

The feature extractor expands each input with polygamma terms; each
experiment in the sweep below uses its own order for the expansion.
"""

from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Experiment:
    name: str
    order: int
    epochs: int


class SpecialFeatures(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.proj = nn.Linear(in_dim * 2, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, order):
        # shift into the positive domain where polygamma is smooth
        z = x.abs() + 1.0
        feats = torch.cat([x, torch.special.polygamma(order, z)], dim=-1)
        return self.out(torch.tanh(self.proj(feats)))


def make_data(n, dim):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(n, dim, generator=g)
    y = torch.sin(x).sum(-1, keepdim=True) + 0.05 * torch.randn(n, 1, generator=g)
    return x, y


def main():
    torch.manual_seed(0)
    x, y = make_data(256, 4)
    model = SpecialFeatures(4, 32)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    compiled = torch.compile(model, backend="aot_eager")

    sweep = [
        Experiment("digamma", order=0, epochs=2),
        Experiment("trigamma", order=1, epochs=2),
        Experiment("tetragamma", order=2, epochs=2),
    ]
    for exp in sweep:
        for epoch in range(exp.epochs):
            for i in range(0, 256, 64):
                xb, yb = x[i : i + 64], y[i : i + 64]
                pred = compiled(xb, exp.order)
                loss = nn.functional.mse_loss(pred, yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
        print(f"{exp.name}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
