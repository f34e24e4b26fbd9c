import torch
import torch.nn as nn
from torchmetrics import MeanMetric


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        return self.net(x)


def build_metric_groups():
    # robust groups skip missing targets, strict groups keep everything
    return {
        "loss": MeanMetric(nan_strategy="ignore"),
        "abs_err": MeanMetric(nan_strategy="ignore"),
        "calibration": MeanMetric(nan_strategy="disable"),
    }


def eval_step(model, x, y, metric):
    pred = model(x)
    err = (pred - y).abs().mean(-1)
    metric.update(err)
    return pred


def main():
    torch.manual_seed(0)
    model = Regressor().eval()
    step = torch.compile(eval_step, backend="aot_eager")
    groups = build_metric_groups()
    with torch.no_grad():
        for epoch in range(2):
            for name, metric in groups.items():
                x = torch.randn(16, 8)
                y = torch.randn(16, 2)
                if metric.nan_strategy == "ignore":
                    y[0, 0] = float("nan")
                step(model, x, y, metric)
            print(epoch, {k: round(float(m.compute()), 4) for k, m in groups.items()})
            for m in groups.values():
                m.reset()


if __name__ == "__main__":
    main()
