import torch
import torch.nn as nn

torch.manual_seed(0)

DATASETS = {
    "rainfall": {"floor": 1e-3, "scale": 5.0},
    "sales": {"floor": 1.0, "scale": 40.0},
    "traffic": {"floor": 0.1, "scale": 12.0},
}


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return nn.functional.softplus(self.net(x)).squeeze(-1)


@torch.compile(backend="aot_eager")
def log_ratio_loss(pred, target, floor):
    p = torch.clamp_min(pred, floor)
    t = torch.clamp_min(target, floor)
    return (torch.log(p) - torch.log(t)).pow(2).mean()


def make_data(scale, n=128):
    x = torch.randn(n, 8)
    y = (x[:, :3].sum(-1).relu() * scale / 3).detach()
    return x, y


def main():
    model = Regressor()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    data = {name: make_data(cfg["scale"]) for name, cfg in DATASETS.items()}
    for epoch in range(2):
        for name, cfg in DATASETS.items():
            x, y = data[name]
            for i in range(0, 128, 64):
                loss = log_ratio_loss(model(x[i:i + 64]), y[i:i + 64], cfg["floor"])
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, name, round(loss.item(), 4))


if __name__ == "__main__":
    main()
