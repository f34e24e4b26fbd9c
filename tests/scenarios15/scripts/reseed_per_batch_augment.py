"""Reproducible on-the-fly augmentation, reseeded for every batch.

The augmentation noise is seeded from (epoch, batch index) inside the
training step, so a run resumed from a checkpoint mid-epoch sees exactly
the same feature dropout and jitter as the original run did.
"""

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

BASE_SEED = 1234
BATCH = 32

model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def train_step(x, y, seed):
    torch.manual_seed(seed)
    # feature dropout + small gaussian jitter
    x = F.dropout(x, p=0.1, training=True)
    x = x + 0.05 * torch.randn_like(x)
    return F.cross_entropy(model(x), y)


data = torch.randn(96, 40)
labels = torch.randint(0, 3, (96,))
n_batches = len(data) // BATCH

for epoch in range(3):
    for b in range(n_batches):
        sl = slice(b * BATCH, (b + 1) * BATCH)
        seed = BASE_SEED + epoch * n_batches + b
        loss = train_step(data[sl], labels[sl], seed)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

# quick check on the clean data
with torch.no_grad():
    acc = (model(data).argmax(-1) == labels).float().mean()
print(f"train accuracy {acc.item():.3f}")
