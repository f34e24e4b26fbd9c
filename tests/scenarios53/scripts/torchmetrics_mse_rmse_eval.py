import torch
import torch.nn as nn
from torchmetrics import MeanSquaredError
from torchmetrics.functional import mean_squared_error

torch.manual_seed(0)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


model = Forecaster()

METRICS = {
    "val/mse": MeanSquaredError(squared=True),
    "val/rmse": MeanSquaredError(squared=False),
}


@torch.compile(backend="aot_eager")
def eval_step(x, y, squared):
    preds = model(x)
    return mean_squared_error(preds, y, squared=squared)


def main():
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x_train, y_train = torch.randn(128, 12), torch.randn(128, 3)
    x_val, y_val = torch.randn(32, 12), torch.randn(32, 3)
    for epoch in range(3):
        for i in range(0, 128, 32):
            loss = nn.functional.mse_loss(model(x_train[i:i + 32]), y_train[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        results = {}
        with torch.no_grad():
            for name, metric in METRICS.items():
                results[name] = round(eval_step(x_val, y_val, metric.squared).item(), 4)
        model.train()
        print(epoch, results)


if __name__ == "__main__":
    main()
