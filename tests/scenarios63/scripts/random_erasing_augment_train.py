import random

import torch
import torch.nn as nn
import torchvision.transforms.v2.functional as TF

torch.manual_seed(0)
random.seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def sample_erase_box(size, scale=(0.05, 0.25)):
    # pick a rectangle to blank out, as in RandomErasing
    area = size * size * random.uniform(*scale)
    h = max(2, min(size - 1, int(area ** 0.5)))
    w = max(2, min(size - 1, int(area / h)))
    i = random.randint(0, size - h)
    j = random.randint(0, size - w)
    return i, j, h, w


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


def train_step(images, labels, i, j, h, w):
    fill = torch.zeros(3, h, w)
    images = TF.erase(images, i, j, h, w, fill)
    logits = model(images)
    loss = loss_fn(logits, labels)
    loss.backward()
    return loss


step = torch.compile(train_step, backend="aot_eager")

for it in range(6):
    images = torch.rand(8, 3, 32, 32)
    labels = torch.randint(0, 10, (8,))
    i, j, h, w = sample_erase_box(32)
    opt.zero_grad()
    loss = step(images, labels, i, j, h, w)
    opt.step()
    print(f"step {it} box=({i},{j},{h},{w}) loss={loss.item():.4f}")
