"""Multi-scale training with torchvision.transforms.v2 inside the step.

The user resizes and normalizes each batch with `torchvision.transforms.v2`
functionals inside a compiled training step, picking the training resolution
of the batch from a list of scales every step (as YOLO-style training does).
"""

import random

import torch
from torch import nn
from torchvision.transforms.v2 import functional as TF

random.seed(0)
torch.manual_seed(0)

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def train_step(images, labels, size):
    x = TF.resize(images, [size, size], antialias=True)
    x = TF.normalize(x, mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    return nn.functional.cross_entropy(model(x), labels)


scales = [32, 40, 48, 56, 64]
for step in range(8):
    size = random.choice(scales)
    images = torch.rand(8, 3, 64, 64)
    labels = torch.randint(0, 10, (8,))
    loss = train_step(images, labels, size)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} size {size} loss {loss.item():.4f}")
