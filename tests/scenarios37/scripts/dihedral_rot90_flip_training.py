"""Train a small CNN on rotation-invariant synthetic tiles (think microscopy).

Each batch gets a random dihedral augmentation: a multiple of 90 degrees and
an optional horizontal mirror.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = random.Random(0)


class TileNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.bn(self.conv2(x)))
        return self.fc(x.mean(dim=(2, 3)))


model = TileNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def augmented_loss(images, labels, quarter_turns, mirror):
    x = torch.rot90(images, quarter_turns, dims=(2, 3))
    if mirror:
        x = torch.flip(x, dims=(3,))
    logits = model(x)
    return F.cross_entropy(logits, labels), logits


loss_fn = torch.compile(augmented_loss, backend="aot_eager")


def make_batch(n=16, size=16):
    labels = torch.randint(0, 3, (n,))
    images = 0.2 * torch.randn(n, 1, size, size)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    r = ((yy - size / 2) ** 2 + (xx - size / 2) ** 2).sqrt()
    for i, c in enumerate(labels.tolist()):
        images[i, 0] += (r < 3 + 2 * c).float()
    return images, labels


model.train()
for step in range(12):
    images, labels = make_batch()
    k = rng.randrange(4)
    mirror = rng.random() < 0.5
    loss, logits = loss_fn(images, labels, k, mirror)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(-1) == labels).float().mean().item()
    print(f"step {step} k={k} mirror={mirror} loss={loss.item():.4f} acc={acc:.2f}")
