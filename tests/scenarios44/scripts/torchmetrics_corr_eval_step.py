import torch
import torch.nn as nn
from torchmetrics.regression import PearsonCorrCoef, SpearmanCorrCoef

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, d_in=12, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_split(n, d_in=12):
    x = torch.randn(n, d_in)
    w = torch.linspace(-1, 1, d_in)
    y = x @ w + 0.3 * torch.randn(n)
    return x, y


model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
pearson = PearsonCorrCoef()
spearman = SpearmanCorrCoef()


@torch.compile(backend="aot_eager")
def eval_step(model, x, y):
    preds = model(x)
    pearson.update(preds, y)
    spearman.update(preds, y)
    return torch.mean((preds - y) ** 2)


train_x, train_y = make_split(256)
val_x, val_y = make_split(64)

for epoch in range(3):
    model.train()
    for i in range(0, 256, 64):
        loss = torch.mean((model(train_x[i:i + 64]) - train_y[i:i + 64]) ** 2)
        loss.backward()
        opt.step()
        opt.zero_grad()

    model.eval()
    pearson.reset()
    spearman.reset()
    mse = 0.0
    with torch.no_grad():
        for i in range(0, 64, 16):
            mse += eval_step(model, val_x[i:i + 16], val_y[i:i + 16]).item()
    print(
        f"epoch {epoch} mse={mse / 4:.4f} "
        f"pearson={pearson.compute().item():.3f} spearman={spearman.compute().item():.3f}"
    )
