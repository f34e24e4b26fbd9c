"""GPU-style preprocessing: random resized crops done on batched tensors.

The crop + normalize pipeline from torchvision.transforms.v2 is compiled
together with the model's forward pass.
"""

import torch
from torch import nn
from torchvision.transforms import v2

torch.manual_seed(0)

augment = v2.Compose([
    v2.RandomResizedCrop(size=(48, 48), scale=(0.3, 1.0), antialias=True),
    v2.RandomHorizontalFlip(),
    v2.Normalize(mean=[0.5, 0.5, 0.5], std=[0.25, 0.25, 0.25]),
])

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(32, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def forward_with_aug(images, labels):
    images = augment(images)
    return nn.functional.cross_entropy(model(images), labels)


for step in range(6):
    images = torch.rand(8, 3, 64, 64)
    labels = torch.randint(0, 10, (8,))
    opt.zero_grad()
    loss = forward_with_aug(images, labels)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
