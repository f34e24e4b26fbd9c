import torch
import torch.nn as nn

torch.manual_seed(0)

# feature sets for the price-series regressor: order of differencing
FEATURE_SETS = [
    ("returns", 1),
    ("acceleration", 2),
    ("jerk", 3),
]
SEQ = 24


class DiffRegressor(nn.Module):
    def __init__(self, seq=SEQ):
        super().__init__()
        self.seq = seq
        self.encoder = nn.Sequential(nn.Linear(seq, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, series, order):
        d = torch.diff(series, n=order, dim=-1)
        d = torch.nn.functional.pad(d, (order, 0))
        return self.encoder(d).squeeze(-1)


model = DiffRegressor()
compiled = torch.compile(model, backend="aot_eager")

for name, order in FEATURE_SETS:
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        for step in range(3):
            series = torch.cumsum(torch.randn(32, SEQ), dim=-1)
            target = series[:, -1] - series[:, -2]
            pred = compiled(series, order)
            loss = (pred - target).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"{name} (n={order}): loss={loss.item():.4f}")
