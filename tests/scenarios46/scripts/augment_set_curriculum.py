import torch
import torch.nn as nn

# augmentations switched on as the curriculum advances
CURRICULUM = [
    {"epochs": 1, "augs": {"flip"}},
    {"epochs": 1, "augs": {"flip", "noise"}},
    {"epochs": 2, "augs": {"flip", "noise", "cutout"}},
]


def augment(x, augs):
    if "flip" in augs:
        x = torch.where(torch.rand(x.shape[0], 1, 1, 1) < 0.5, x.flip(-1), x)
    if "noise" in augs:
        x = x + 0.05 * torch.randn_like(x)
    if "cutout" in augs:
        mask = torch.ones_like(x)
        mask[..., 4:8, 4:8] = 0
        x = x * mask
    return x


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def main():
    torch.manual_seed(0)
    model = SmallCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    aug = torch.compile(augment, backend="aot_eager")
    epoch = 0
    for stage in CURRICULUM:
        for _ in range(stage["epochs"]):
            for _ in range(3):
                x = torch.randn(16, 1, 12, 12)
                y = torch.randint(0, 10, (16,))
                loss = nn.functional.cross_entropy(model(aug(x, stage["augs"])), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, sorted(stage["augs"]), round(loss.item(), 4))
            epoch += 1


if __name__ == "__main__":
    main()
