"""Fine-tune a small conv net, freezing BatchNorm statistics after warm-up."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def freeze_bn(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


model = SmallCNN()
model.compile(backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
FREEZE_BN_AT = 2

for epoch in range(4):
    model.train()
    if epoch >= FREEZE_BN_AT:
        freeze_bn(model)
    for _ in range(3):
        x = torch.randn(8, 3, 16, 16)
        y = torch.randint(0, 4, (8,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        x = torch.randn(16, 3, 16, 16)
        y = torch.randint(0, 4, (16,))
        acc = (model(x).argmax(-1) == y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.2f}")
