"""A training-step factory with a linear loss warmup.

The user builds the step function with `make_step(model, opt, warmup)`; the
closure keeps its own step count and scales the auxiliary loss by
`min(1, step / warmup)` so it fades in over the first steps.
"""

import torch
from torch import nn

torch.manual_seed(0)


def make_step(model, opt, warmup):
    step = 0

    @torch.compile(backend="aot_eager")
    def compute_loss(x, y):
        pred = model(x)
        main = nn.functional.mse_loss(pred, y)
        aux = pred.abs().mean()
        return main + min(1.0, step / warmup) * 0.1 * aux

    def train_step(x, y):
        nonlocal step
        loss = compute_loss(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        return loss.item()

    return train_step


model = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
train_step = make_step(model, opt, warmup=10)
x, y = torch.randn(64, 12), torch.randn(64, 1)
for i in range(14):
    print(f"step {i:2d} loss {train_step(x, y):.4f}")
