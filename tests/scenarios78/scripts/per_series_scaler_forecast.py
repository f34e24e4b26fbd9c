import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.RandomState(0)

CONTEXT, HORIZON = 24, 6


class LinearForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CONTEXT, 32), nn.ReLU(), nn.Linear(32, HORIZON))

    def forward(self, x):
        return self.net(x)


model = LinearForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(windows, targets, mean, std):
    x = (windows - mean) / std
    y = (targets - mean) / std
    pred = model(x)
    return torch.mean((pred - y) ** 2)


def load_series(level, scale, n=200):
    t = np.arange(n)
    return level + scale * (np.sin(t / 7.0) + 0.3 * rng.randn(n))


# one global model over several store-level sales series, each with its own scale
stores = {"store_a": (120.0, 15.0), "store_b": (40.0, 4.0), "store_c": (900.0, 60.0), "store_d": (5.0, 1.5)}
for epoch in range(2):
    for store, (level, scale) in stores.items():
        series = load_series(level, scale)
        train_part = series[:150]
        mean, std = float(train_part.mean()), float(train_part.std())
        data = torch.tensor(series, dtype=torch.float32)
        starts = torch.randint(0, 150 - CONTEXT - HORIZON, (16,))
        windows = torch.stack([data[s:s + CONTEXT] for s in starts.tolist()])
        targets = torch.stack([data[s + CONTEXT:s + CONTEXT + HORIZON] for s in starts.tolist()])
        loss = train_step(windows, targets, mean, std)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} {store} loss {loss.item():.4f}")
