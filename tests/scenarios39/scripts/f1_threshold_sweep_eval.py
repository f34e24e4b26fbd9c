"""Multi-label tagging evaluation: the validation loop computes torchmetrics'
F1, precision and recall inside one compiled function and sweeps the decision
threshold to pick an operating point."""

import torch
from torch import nn
from torchmetrics.functional.classification import (
    multilabel_f1_score,
    multilabel_precision,
    multilabel_recall,
)

NUM_LABELS = 6


def evaluate(model, x, y, threshold):
    probs = model(x).sigmoid()
    f1 = multilabel_f1_score(probs, y, num_labels=NUM_LABELS, threshold=threshold)
    p = multilabel_precision(probs, y, num_labels=NUM_LABELS, threshold=threshold)
    r = multilabel_recall(probs, y, num_labels=NUM_LABELS, threshold=threshold)
    return f1, p, r


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.GELU(), nn.Linear(32, NUM_LABELS))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(128, 20)
    y = (torch.randn(128, NUM_LABELS) + x[:, :NUM_LABELS] > 0.5).long()
    xv = torch.randn(64, 20)
    yv = (torch.randn(64, NUM_LABELS) + xv[:, :NUM_LABELS] > 0.5).long()

    eval_fn = torch.compile(evaluate, backend="aot_eager")
    for epoch in range(3):
        model.train()
        for i in range(0, 128, 32):
            loss = nn.functional.binary_cross_entropy_with_logits(model(x[i:i + 32]), y[i:i + 32].float())
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        best = (0.0, None)
        with torch.no_grad():
            for threshold in (0.3, 0.4, 0.5, 0.6):
                f1, p, r = eval_fn(model, xv, yv, threshold)
                if f1.item() > best[0]:
                    best = (f1.item(), threshold)
        print(f"epoch {epoch}: best f1 {best[0]:.3f} at {best[1]}")


if __name__ == "__main__":
    main()
