import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.regression import R2Score

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, d_in=10, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1)
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_split(n, w):
    x = torch.randn(n, 10)
    y = x @ w + 0.1 * torch.randn(n)
    return TensorDataset(x, y)


def main():
    w = torch.randn(10)
    train_ds = make_split(96, w)
    val_ds = make_split(40, w)
    train_dl = DataLoader(train_ds, batch_size=16, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=16, shuffle=False)

    model = Regressor()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.MSELoss()
    r2 = R2Score()

    for epoch in range(3):
        model.train()
        total = 0.0
        for x, y in train_dl:
            opt.zero_grad()
            loss = loss_fn(cmodel(x), y)
            loss.backward()
            opt.step()
            total += loss.item()

        model.eval()
        r2.reset()
        with torch.no_grad():
            for x, y in val_dl:
                r2.update(cmodel(x), y)
        print(f"epoch {epoch} train_mse {total / len(train_dl):.4f} val_r2 {r2.compute().item():.4f}")


if __name__ == "__main__":
    main()
