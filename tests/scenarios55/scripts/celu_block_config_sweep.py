import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIGS = [
    {"name": "base", "alpha": 1.0, "lr": 1e-2},
    {"name": "soft", "alpha": 0.5, "lr": 1e-2},
    {"name": "wide", "alpha": 2.0, "lr": 5e-3},
]


class ResBlock(nn.Module):
    def __init__(self, dim, alpha):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)
        self.norm = nn.LayerNorm(dim)
        self.alpha = alpha

    def forward(self, x):
        h = F.celu(self.fc1(self.norm(x)), alpha=self.alpha)
        return x + self.fc2(h)


class Regressor(nn.Module):
    def __init__(self, dim, alpha):
        super().__init__()
        self.inp = nn.Linear(4, dim)
        self.block = ResBlock(dim, alpha)
        self.block.compile(backend="aot_eager")
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        return self.out(self.block(self.inp(x)))


def run(cfg, data):
    torch.manual_seed(1)
    model = Regressor(16, cfg["alpha"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(2):
        for x, y in data:
            loss = F.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


def main():
    xs = torch.randn(96, 4)
    ys = xs[:, 0] * 2 - xs[:, 1] ** 2 + 0.1 * torch.randn(96)
    data = [(xs[i:i + 32], ys[i:i + 32]) for i in range(0, 96, 32)]
    for cfg in CONFIGS:
        print(cfg["name"], f"final loss {run(cfg, data):.4f}")


if __name__ == "__main__":
    main()
