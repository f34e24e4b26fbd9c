"""ANIL-style meta-learning on sine-wave regression.

Only the linear head is adapted per task (the body is shared), so the
inner-loop gradient of the squared error is written out by hand and the
head is updated as fast weights used through F.linear. The number of
adaptation steps grows over meta-training, as in the curriculum we use.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

body = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU())
head_w = nn.Parameter(torch.randn(1, 40) * 0.1)
head_b = nn.Parameter(torch.zeros(1))
meta_opt = torch.optim.Adam(list(body.parameters()) + [head_w, head_b], lr=1e-3)


@torch.compile(backend="aot_eager")
def task_loss(xs, ys, xq, yq, inner_steps, inner_lr):
    hs, hq = body(xs), body(xq)
    w, b = head_w, head_b
    for _ in range(inner_steps):
        # d/dw of mean squared error for a linear head
        err = F.linear(hs, w, b) - ys
        grad_w = 2.0 * err.T @ hs / hs.shape[0]
        grad_b = 2.0 * err.mean(0)
        w = w - inner_lr * grad_w
        b = b - inner_lr * grad_b
    return F.mse_loss(F.linear(hq, w, b), yq)


def sample_task(shots=10):
    amp = 0.1 + 4.9 * torch.rand(1)
    phase = math.pi * torch.rand(1)
    x = torch.rand(2 * shots, 1) * 10 - 5
    y = amp * torch.sin(x - phase)
    return x[:shots], y[:shots], x[shots:], y[shots:]


def inner_steps_for(it):
    return 1 if it < 4 else (2 if it < 8 else 5)


for it in range(10):
    meta_opt.zero_grad()
    total = 0.0
    for _ in range(2):
        xs, ys, xq, yq = sample_task()
        loss = task_loss(xs, ys, xq, yq, inner_steps_for(it), 0.01)
        loss.backward()
        total += loss.item()
    meta_opt.step()
    print(f"meta-iter {it} steps {inner_steps_for(it)} query loss {total / 2:.3f}")
