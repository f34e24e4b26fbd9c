import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)


class BatchColourJitter(nn.Module):
    """Per-sample brightness/contrast jitter done on the whole batch."""

    def __init__(self, brightness=0.0, contrast=0.0):
        super().__init__()
        self.brightness = brightness
        self.contrast = contrast

    def set_strength(self, s):
        self.brightness = round(0.4 * s, 3)
        self.contrast = round(0.4 * s, 3)

    def forward(self, x):
        if not self.training:
            return x
        n = x.size(0)
        b = 1.0 + (torch.rand(n, 1, 1, 1) * 2 - 1) * self.brightness
        c = 1.0 + (torch.rand(n, 1, 1, 1) * 2 - 1) * self.contrast
        x = (x * b).clamp(0, 1)
        mean = TF.rgb_to_grayscale(x).mean(dim=(1, 2, 3), keepdim=True)
        return ((x - mean) * c + mean).clamp(0, 1)


class AugmentedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.jitter = BatchColourJitter()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(16, 6)

    def forward(self, x):
        return self.head(self.backbone(self.jitter(x)))


model = AugmentedNet()
model.compile(backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)
warmup_epochs = 4

for epoch in range(6):
    model.jitter.set_strength(min(1.0, (epoch + 1) / warmup_epochs))
    model.train()
    for _ in range(3):
        x = torch.rand(16, 3, 20, 20)
        y = torch.randint(0, 6, (16,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} brightness={model.jitter.brightness} loss={loss.item():.4f}")
