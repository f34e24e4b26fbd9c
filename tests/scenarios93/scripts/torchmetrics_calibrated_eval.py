"""Evaluation harness: a compiled scoring function produces temperature-scaled
class probabilities, a torchmetrics MetricCollection (with a ClasswiseWrapper
and a MinMaxMetric) tracks them, and the temperature is re-fitted on a
calibration split after each training round."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassCalibrationError
from torchmetrics.wrappers import ClasswiseWrapper, MinMaxMetric

N_CLS = 3
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, N_CLS))


@torch.compile(backend="aot_eager")
def score(x, temperature):
    logits = model(x)
    return F.softmax(logits / temperature, dim=-1)


def fit_temperature(x, y):
    with torch.no_grad():
        logits = model(x)
    best_t, best_nll = 1.0, float("inf")
    for t in [0.25, 0.35, 0.5, 0.7, 1.0, 1.4, 2.0]:
        nll = F.cross_entropy(logits / t, y).item()
        if nll < best_nll:
            best_t, best_nll = t, nll
    return best_t


def main():
    torch.manual_seed(1)
    w = torch.randn(10, N_CLS)
    def make(n):
        x = torch.randn(n, 10)
        return x, (x @ w + 0.5 * torch.randn(n, N_CLS)).argmax(-1)
    train_x, train_y = make(256)
    cal_x, cal_y = make(48)
    test_x, test_y = make(64)

    metrics = MetricCollection({
        "acc": MinMaxMetric(MulticlassAccuracy(num_classes=N_CLS)),
        "per_class": ClasswiseWrapper(MulticlassAccuracy(num_classes=N_CLS, average=None),
                                      labels=["low", "mid", "high"]),
        "ece": MulticlassCalibrationError(num_classes=N_CLS, n_bins=5),
    })
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    temperature = 1.0
    for rnd in range(4):
        for _ in range(10):
            idx = torch.randint(0, 256, (32,))
            loss = F.cross_entropy(model(train_x[idx]), train_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        temperature = fit_temperature(cal_x, cal_y)
        with torch.no_grad():
            for chunk in range(2):
                sl = slice(chunk * 32, (chunk + 1) * 32)
                metrics.update(score(test_x[sl], temperature), test_y[sl])
        res = metrics.compute()
        print(f"round {rnd}: T={temperature} acc={res['raw'].item():.3f} "
              f"(best {res['max'].item():.3f}) ece={res['ece'].item():.3f}")
        metrics.reset()


if __name__ == "__main__":
    main()
