"""Fine-tune a small MobileNetV3 on a 10-class task, then move to a 4-class task.

Stage 1 trains everything on the 10 classes. Stage 2 swaps the last
classifier layer for a 4-class one and freezes the feature extractor so only
the head trains on the new data.
"""

import torch
from torch import nn
import torchvision

torch.manual_seed(0)

model = torchvision.models.mobilenet_v3_small(weights=None, num_classes=10)
model.train()
compiled = torch.compile(model, backend="aot_eager")


def fake_batch(n_classes, n=8):
    return torch.randn(n, 3, 64, 64), torch.randint(0, n_classes, (n,))


def train(steps, n_classes, opt):
    for step in range(steps):
        x, y = fake_batch(n_classes)
        loss = nn.functional.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"  step {step} loss {loss.item():.3f}")


print("stage 1: 10 classes")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
train(3, 10, opt)

print("stage 2: 4 classes, frozen features")
in_features = model.classifier[-1].in_features
model.classifier[-1] = nn.Linear(in_features, 4)
model.features.requires_grad_(False)
head_params = [p for p in model.parameters() if p.requires_grad]
opt = torch.optim.SGD(head_params, lr=0.01, momentum=0.9)
train(3, 4, opt)
