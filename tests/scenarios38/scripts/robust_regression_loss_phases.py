"""Robust regression with smooth L1: mean for training, sum for validation totals,
per-sample losses for hard-example mining."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def compute_loss(net, x, y, reduction):
    pred = net(x).squeeze(-1)
    return F.smooth_l1_loss(pred, y, beta=0.5, reduction=reduction)


w_true = torch.randn(12)
x_train = torch.randn(256, 12)
y_train = x_train @ w_true + 0.1 * torch.randn(256)
x_val = torch.randn(64, 12)
y_val = x_val @ w_true


for epoch in range(3):
    # regular training
    for i in range(0, 256, 64):
        loss = compute_loss(model, x_train[i:i + 64], y_train[i:i + 64], "mean")
        opt.zero_grad()
        loss.backward()
        opt.step()

    # validation total
    with torch.no_grad():
        total = compute_loss(model, x_val, y_val, "sum")
    print(f"epoch {epoch} val total {total.item():.3f}")

    # hard example mining: retrain on the worst quarter
    with torch.no_grad():
        per_sample = compute_loss(model, x_train[:64], y_train[:64], "none")
    hard = per_sample.topk(16).indices
    loss = compute_loss(model, x_train[hard], y_train[hard], "mean")
    opt.zero_grad()
    loss.backward()
    opt.step()
