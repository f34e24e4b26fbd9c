"""Train a tiny CNN with a compiled rotation augmentation."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)
random.seed(0)

net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(8, 5),
)
opt = torch.optim.SGD(net.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def augment(images, angle):
    images = TF.rotate(images, angle, interpolation=TF.InterpolationMode.BILINEAR)
    return TF.horizontal_flip(images)


for step in range(10):
    images = torch.rand(8, 3, 24, 24)
    labels = torch.randint(0, 5, (8,))
    angle = random.uniform(-20.0, 20.0)
    batch = augment(images, angle)
    loss = F.cross_entropy(net(batch), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} angle {angle:.1f} loss {loss.item():.3f}")
