import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)
random.seed(0)

# (op, probability, magnitude) sub-policies, unlocked as training goes on
SUBPOLICIES = [
    ("invert", 0.2, None),
    ("equalize", 0.6, None),
    ("posterize", 0.4, 5),
    ("autocontrast", 0.5, None),
]


def apply_policy(imgs, policy):
    for op, prob, magnitude in policy:
        gate = (torch.rand(imgs.size(0), 1, 1, 1) < prob)
        if op == "invert":
            out = TF.invert(imgs)
        elif op == "equalize":
            out = TF.equalize(imgs)
        elif op == "posterize":
            out = TF.posterize(imgs, magnitude)
        else:
            out = TF.autocontrast(imgs)
        imgs = torch.where(gate, out, imgs)
    return imgs


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
        )

    def forward(self, x):
        return self.net(x)


model = Model()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def augment_and_forward(imgs_u8, labels, policy):
    x = apply_policy(imgs_u8, policy).float() / 255.0
    return F.cross_entropy(model(x), labels)


for epoch in range(4):
    policy = SUBPOLICIES[: epoch + 1]
    for _ in range(3):
        imgs = torch.randint(0, 256, (16, 3, 24, 24), dtype=torch.uint8)
        labels = torch.randint(0, 10, (16,))
        loss = augment_and_forward(imgs, labels, policy)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} policy={[p[0] for p in policy]} loss={loss.item():.4f}")
