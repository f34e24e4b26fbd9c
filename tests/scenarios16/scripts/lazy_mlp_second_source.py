"""Tabular regression with a width-agnostic model.

We did not want to hard-code the feature count, so the MLP starts with
LazyLinear and learns its input width from the first batch. After the first
source we continue on a second export of the sensor table, which has a few
more columns, so we rebuild the input layer for it and keep the body.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.inp = nn.LazyLinear(hidden)
        self.body = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.body(self.inp(x))).squeeze(-1)


def source(n_features, n_batches, batch=32):
    w = torch.randn(n_features)
    for _ in range(n_batches):
        x = torch.randn(batch, n_features)
        yield x, x @ w + 0.1 * torch.randn(batch)


model = Regressor()
compiled = torch.compile(model, backend="aot_eager")

for name, width in [("sensors_v1", 12), ("sensors_v2", 17)]:
    if name != "sensors_v1":
        # new export has more columns: fresh input layer, same body
        model.inp = nn.LazyLinear(64)
    batches = list(source(width, 5))
    with torch.no_grad():
        model(batches[0][0])  # dry run so the lazy layer gets its weights
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (x, y) in enumerate(batches):
        loss = nn.functional.mse_loss(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"{name} step {step} loss {loss.item():.4f}")
