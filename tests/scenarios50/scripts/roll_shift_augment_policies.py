import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

# translation augmentation policies: (max_dy, max_dx, flip)
POLICIES = {
    "none": (0, 0, False),
    "light": (2, 2, False),
    "strong": (4, 6, True),
}


@torch.compile(backend="aot_eager")
def warp(images, dy, dx, flip):
    out = torch.roll(images, shifts=(dy, dx), dims=(2, 3))
    if flip:
        out = out.flip(-1)
    return out


class SmallCNN(nn.Module):
    def __init__(self, n_cls=10):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1, stride=2)
        self.fc = nn.Linear(16, n_cls)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.relu(self.c2(x))
        return self.fc(x.mean(dim=(2, 3)))


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
images = torch.randn(5, 16, 1, 20, 20)
labels = torch.randint(0, 10, (5, 16))

schedule = ["none", "light", "light", "strong", "strong"]
for epoch, policy in enumerate(schedule):
    max_dy, max_dx, flip = POLICIES[policy]
    total = 0.0
    for x, y in zip(images, labels):
        dy = random.randint(-max_dy, max_dy)
        dx = random.randint(-max_dx, max_dx)
        xa = warp(x, dy, dx, flip)
        loss = F.cross_entropy(model(xa), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} policy {policy} loss {total / len(images):.4f}")
