import torch
import torch.nn as nn
import torchvision.transforms.v2.functional as TF

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


model = SmallCNN().eval()

# ImageNet-C style blur levels
SEVERITIES = {
    1: {"kernel_size": [3, 3], "sigma": [0.5, 0.5]},
    2: {"kernel_size": [5, 5], "sigma": [1.0, 1.0]},
    3: {"kernel_size": [7, 7], "sigma": [1.5, 1.5]},
}


def corrupt_and_predict(images, kernel_size, sigma):
    blurred = TF.gaussian_blur(images, kernel_size=kernel_size, sigma=sigma)
    blurred = blurred.clamp(0.0, 1.0)
    return model(blurred).argmax(-1)


evaluate = torch.compile(corrupt_and_predict, backend="aot_eager")

g = torch.Generator().manual_seed(1)
val_images = torch.rand(4, 8, 3, 32, 32, generator=g)
val_labels = torch.randint(0, 10, (4, 8), generator=g)

with torch.no_grad():
    clean = sum((model(x).argmax(-1) == y).sum().item() for x, y in zip(val_images, val_labels))
    print(f"clean acc={clean / val_labels.numel():.3f}")
    for level, cfg in SEVERITIES.items():
        correct = 0
        for x, y in zip(val_images, val_labels):
            pred = evaluate(x, cfg["kernel_size"], cfg["sigma"])
            correct += (pred == y).sum().item()
        print(f"gaussian_blur severity={level} acc={correct / val_labels.numel():.3f}")
