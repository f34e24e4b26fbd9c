import math

import torch
import torch.nn as nn

torch.manual_seed(0)

CONTEXT = 16


class NextStep(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CONTEXT, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, window):
        return window[:, -1:] + self.net(window)


model = NextStep()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def rollout(window, horizon):
    preds = []
    for _ in range(horizon):
        nxt = model(window)
        preds.append(nxt)
        window = torch.cat([window[:, 1:], nxt], dim=1)
    return torch.cat(preds, dim=1)


def make_series(n_series, length):
    t = torch.arange(length, dtype=torch.float32)
    period = 10 + 20 * torch.rand(n_series, 1)
    return torch.sin(2 * math.pi * t / period) + 0.05 * torch.randn(n_series, length)


train = make_series(64, 120)
val = make_series(16, 120)

train_horizon = 1
for epoch in range(3):
    for _ in range(5):
        starts = torch.randint(0, 120 - CONTEXT - train_horizon, (32,))
        rows = torch.randint(0, 64, (32,))
        window = torch.stack([train[r, s:s + CONTEXT] for r, s in zip(rows.tolist(), starts.tolist())])
        target = torch.stack([train[r, s + CONTEXT:s + CONTEXT + train_horizon] for r, s in zip(rows.tolist(), starts.tolist())])
        loss = torch.mean((rollout(window, train_horizon) - target) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
    # validation: multi-step forecast, horizon grows with the epoch
    val_horizon = 8 * (epoch + 1)
    with torch.no_grad():
        pred = rollout(val[:, :CONTEXT], val_horizon)
        mse = torch.mean((pred - val[:, CONTEXT:CONTEXT + val_horizon]) ** 2)
    print(f"epoch {epoch} train {loss.item():.4f} val@{val_horizon} {mse.item():.4f}")
