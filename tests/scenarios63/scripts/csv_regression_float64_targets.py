import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def load_shard(kind, n=48):
    # shards come from two different export tools
    x = rng.standard_normal((n, 5))
    y = x @ np.array([0.5, -1.0, 2.0, 0.0, 0.3]) + 0.1 * rng.standard_normal(n)
    if kind == "parquet":
        x, y = x.astype(np.float32), y.astype(np.float32)
    return torch.from_numpy(x).float(), torch.from_numpy(y)


model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    pred = model(x).squeeze(-1)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    return loss


shards = ["parquet", "parquet", "csv", "parquet", "csv", "csv"]
for epoch in range(2):
    for i, kind in enumerate(shards):
        x, y = load_shard(kind)
        opt.zero_grad()
        loss = train_step(x, y)
        opt.step()
        print(f"epoch {epoch} shard {i} ({kind}, {y.dtype}) loss={loss.item():.4f}")
