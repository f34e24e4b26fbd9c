import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ShuffleUnit(nn.Module):
    def __init__(self, channels, groups):
        super().__init__()
        self.groups = groups
        self.gconv1 = nn.Conv2d(channels, channels, 1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.dw = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.gconv2 = nn.Conv2d(channels, channels, 1, groups=groups, bias=False)

    def forward(self, x):
        out = F.relu(self.bn1(self.gconv1(x)))
        out = F.channel_shuffle(out, self.groups)
        out = self.bn2(self.dw(out))
        out = self.gconv2(out)
        return F.relu(out + x)


class TinyShuffleNet(nn.Module):
    def __init__(self, channels, groups, num_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 3, padding=1)
        self.units = nn.Sequential(ShuffleUnit(channels, groups), ShuffleUnit(channels, groups))
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.units(F.relu(self.stem(x)))
        return self.fc(x.mean(dim=(2, 3)))


# width multiplier -> (channels, groups), as in the ShuffleNet paper tables
WIDTHS = {"0.5x": (24, 3), "1.0x": (24, 4), "1.5x": (24, 8)}

images = torch.randn(8, 3, 16, 16)
labels = torch.randint(0, 10, (8,))

for name, (channels, groups) in WIDTHS.items():
    torch.manual_seed(1)
    model = TinyShuffleNet(channels, groups)
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(3):
        loss = F.cross_entropy(compiled(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"width {name}: groups={groups} loss={loss.item():.4f}")
