import torch
import torch.nn as nn
from torchmetrics.functional.classification import binary_f1_score

torch.manual_seed(0)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


@torch.compile(backend="aot_eager")
def eval_step(model, x, y, threshold):
    probs = torch.sigmoid(model(x))
    return binary_f1_score(probs, y, threshold=threshold)


def calibrate(model, x, y):
    # pick the threshold that maximises F1 on the held-out calibration split
    with torch.no_grad():
        probs = torch.sigmoid(model(x))
    best, best_t = -1.0, 0.5
    for t in torch.linspace(0.2, 0.8, 13).tolist():
        pred = (probs > t).long()
        tp = ((pred == 1) & (y == 1)).sum().item()
        fp = ((pred == 1) & (y == 0)).sum().item()
        fn = ((pred == 0) & (y == 1)).sum().item()
        f1 = 2 * tp / max(1, 2 * tp + fp + fn)
        if f1 > best:
            best, best_t = f1, round(t, 2)
    return best_t


def main():
    model = Detector()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    w = torch.randn(12)
    test = [(x := torch.randn(64, 12), (x @ w > 0.3).long()) for _ in range(2)]
    for run in range(3):
        xs = torch.randn(128, 12)
        ys = (xs @ w > 0.3).float()
        for _ in range(20):
            loss = nn.functional.binary_cross_entropy_with_logits(model(xs), ys)
            opt.zero_grad()
            loss.backward()
            opt.step()
        cx = torch.randn(64, 12)
        threshold = calibrate(model, cx, (cx @ w > 0.3).long())
        with torch.no_grad():
            scores = [eval_step(model, x, y, threshold).item() for x, y in test]
        print(f"run {run}: threshold={threshold} f1={sum(scores) / len(scores):.3f}")


if __name__ == "__main__":
    main()
