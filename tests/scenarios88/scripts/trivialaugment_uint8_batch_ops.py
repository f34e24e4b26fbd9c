import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)
random.seed(0)

OPS = ["identity", "posterize", "autocontrast", "invert", "sharpness"]
NUM_BINS = 31


def make_batch(n=16):
    imgs = torch.randint(0, 256, (n, 3, 32, 32), dtype=torch.uint8)
    labels = torch.randint(0, 10, (n,))
    return imgs, labels


@torch.compile(backend="aot_eager")
def apply_op(imgs, op, magnitude):
    # TrivialAugment-style: one op per batch, magnitude bin in [0, NUM_BINS)
    if op == "posterize":
        bits = 8 - int(magnitude * 4 / (NUM_BINS - 1))
        imgs = TF.posterize(imgs, bits)
    elif op == "autocontrast":
        imgs = TF.autocontrast(imgs)
    elif op == "invert":
        imgs = TF.invert(imgs)
    elif op == "sharpness":
        imgs = TF.adjust_sharpness(imgs, 1.0 + magnitude / (NUM_BINS - 1))
    return imgs.float().div(255.0)


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


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for step in range(8):
    imgs, labels = make_batch()
    op = random.choice(OPS)
    magnitude = random.randint(0, NUM_BINS - 1)
    x = apply_op(imgs, op, magnitude)
    loss = F.cross_entropy(model(x), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} op={op} m={magnitude} loss={loss.item():.4f}")
