import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)


def fake_dataset(n, size, brightness, tint):
    x = torch.rand(n, 3, size, size) * brightness
    x = x + torch.tensor(tint).view(1, 3, 1, 1)
    y = torch.randint(0, 5, (n,))
    return x.clamp(0, 1), y


def channel_stats(images):
    var, mean = torch.var_mean(images, dim=(0, 2, 3))
    return tuple(mean.tolist()), tuple(var.sqrt().tolist())


@torch.compile(backend="aot_eager")
def preprocess(images, mean, std, crop):
    images = TF.center_crop(images, [crop, crop])
    return TF.normalize(images, mean=list(mean), std=list(std))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        return self.head(F.relu(self.conv(x)).mean(dim=(2, 3)))


datasets = {
    "street": fake_dataset(64, 36, 0.8, [0.10, 0.05, 0.00]),
    "indoor": fake_dataset(64, 36, 0.5, [0.20, 0.15, 0.10]),
    "night": fake_dataset(64, 36, 0.3, [0.00, 0.00, 0.05]),
}
stats = {name: channel_stats(x) for name, (x, _) in datasets.items()}

model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for name, (x, y) in datasets.items():
        mean, std = stats[name]
        for i in range(0, len(x), 32):
            xb = preprocess(x[i:i + 32], mean, std, 32)
            loss = F.cross_entropy(model(xb), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} {name} loss={loss.item():.4f}")
