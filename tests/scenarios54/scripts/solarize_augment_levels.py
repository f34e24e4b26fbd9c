import torch
import torch.nn as nn
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)

# augmentation strength schedule (RandAugment-style levels)
LEVELS = {
    "light": {"threshold": 0.9, "gamma": 1.0},
    "medium": {"threshold": 0.7, "gamma": 1.1},
    "strong": {"threshold": 0.5, "gamma": 1.25},
}


def augment(images, threshold, gamma):
    out = TF.solarize(images, threshold=threshold)
    out = TF.adjust_gamma(out, gamma)
    return out.clamp(0.0, 1.0)


augment_c = torch.compile(augment, backend="aot_eager")


class TinyCNN(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = TinyCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

schedule = ["light", "light", "medium", "medium", "strong", "strong", "light"]
for epoch, level in enumerate(schedule):
    cfg = LEVELS[level]
    total = 0.0
    for _ in range(3):
        images = torch.rand(8, 3, 32, 32)
        labels = torch.randint(0, 5, (8,))
        aug = augment_c(images, cfg["threshold"], cfg["gamma"])
        loss = loss_fn(model(aug), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} level={level} loss={total / 3:.4f}")
