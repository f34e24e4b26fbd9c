"""Reproducible on-the-fly augmentation with a seeded generator per epoch.

Each epoch gets its own torch.Generator seeded from the epoch number, so a
run can be resumed mid-training and see the same noise and masking. The
augmentation is part of the compiled training step.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def train_step(x, y, gen):
    # feature dropout + jitter drawn from the epoch's generator
    keep = torch.rand(x.shape, generator=gen) > 0.1
    noise = torch.randn(x.shape, generator=gen) * 0.05
    x = x * keep + noise
    return nn.functional.cross_entropy(model(x), y)


data = torch.randn(96, 40)
labels = torch.randint(0, 3, (96,))

for epoch in range(3):
    gen = torch.Generator().manual_seed(1000 + epoch)
    for i in range(0, 96, 32):
        loss = train_step(data[i:i + 32], labels[i:i + 32], gen)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

# quick check on the clean data
with torch.no_grad():
    acc = (model(data).argmax(-1) == labels).float().mean()
print(f"train accuracy {acc.item():.3f}")
