import bisect

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

MILESTONES = [0, 4, 8, 12]
FACTORS = [0.1, 0.3, 0.6, 1.0]

model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-2)


def train_step(x, y, step):
    idx = bisect.bisect_right(MILESTONES, step) - 1
    warmup = FACTORS[idx]
    pred = model(x)
    loss = F.mse_loss(pred, y)
    return loss, loss * warmup


step_fn = torch.compile(train_step, backend="aot_eager")

w_true = torch.randn(8, 1)
for step in range(16):
    x = torch.randn(32, 8)
    y = x @ w_true + 0.1 * torch.randn(32, 1)
    loss, scaled = step_fn(x, y, step)
    opt.zero_grad()
    scaled.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f}")
