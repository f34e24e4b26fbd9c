"""Mixup training of a small CNN on synthetic 16x16 images.

The mixing coefficient is drawn from a Beta distribution with numpy each step
(as in most mixup reference code) and given to the compiled training loss,
which blends the images and the two targets.
"""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

ALPHA = 0.4


@torch.compile(backend="aot_eager")
def mixup_loss(images, labels, perm, lam):
    mixed = lam * images + (1 - lam) * images[perm]
    logits = model(mixed)
    return lam * F.cross_entropy(logits, labels) + (1 - lam) * F.cross_entropy(logits, labels[perm])


images = torch.randn(512, 3, 16, 16)
labels = torch.randint(0, 10, (512,))

for step in range(12):
    idx = torch.randint(0, 512, (32,))
    x, y = images[idx], labels[idx]
    lam = rng.beta(ALPHA, ALPHA)
    perm = torch.randperm(32)
    loss = mixup_loss(x, y, perm, lam)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} lam {lam:.3f} loss {loss.item():.4f}")
