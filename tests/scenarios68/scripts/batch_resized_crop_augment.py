"""Batch-level RandomResizedCrop done on the tensor batch with torchvision's
transforms.v2.functional, fused with the classifier step in one compiled
function."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)
random.seed(0)

OUT = 32

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def sample_box(h, w, scale=(0.35, 1.0)):
    area = h * w * random.uniform(*scale)
    side = int(area ** 0.5)
    ch, cw = min(side, h), min(side, w)
    top = random.randint(0, h - ch)
    left = random.randint(0, w - cw)
    return top, left, ch, cw


@torch.compile(backend="aot_eager")
def train_step(images, labels, top, left, height, width):
    crops = TF.resized_crop(images, top, left, height, width, [OUT, OUT], antialias=False)
    crops = TF.horizontal_flip(crops)
    return F.cross_entropy(model(crops), labels)


for epoch in range(2):
    for step in range(4):
        images = torch.rand(8, 3, 48, 48)
        labels = torch.randint(0, 10, (8,))
        box = sample_box(48, 48)
        opt.zero_grad()
        loss = train_step(images, labels, *box)
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} last box {box}")
