"""First-order MAML on sine-wave regression.

The inner adaptation loop is compiled; it uses torch.func.grad over
functional_call. Meta-training adapts with one inner step, the periodic
meta-test adapts with more steps, as in the MAML paper.
"""
import math

import torch
import torch.nn as nn
from torch.func import functional_call, grad

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


model = Regressor()
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def sample_task(n_support=10, n_query=10):
    amp = torch.empty(1).uniform_(0.1, 5.0)
    phase = torch.empty(1).uniform_(0.0, math.pi)
    xs = torch.empty(n_support + n_query, 1).uniform_(-5.0, 5.0)
    ys = amp * torch.sin(xs + phase)
    return xs[:n_support], ys[:n_support], xs[n_support:], ys[n_support:]


def support_loss(params, x, y):
    pred = functional_call(model, params, (x,))
    return ((pred - y) ** 2).mean()


@torch.compile(backend="aot_eager")
def adapt(params, x, y, inner_lr, n_steps):
    for _ in range(n_steps):
        g = grad(support_loss)(params, x, y)
        params = {k: p - inner_lr * g[k] for k, p in params.items()}
    return params


def meta_test(n_tasks=4, n_steps=5):
    errs = []
    for _ in range(n_tasks):
        xs, ys, xq, yq = sample_task()
        fast = {k: v.detach() for k, v in model.named_parameters()}
        fast = adapt(fast, xs, ys, 0.01, n_steps)
        with torch.no_grad():
            errs.append(((functional_call(model, fast, (xq,)) - yq) ** 2).mean().item())
    return sum(errs) / len(errs)


for it in range(1, 13):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for _ in range(4):
        xs, ys, xq, yq = sample_task()
        fast = {k: v.detach().requires_grad_() for k, v in model.named_parameters()}
        fast = adapt(fast, xs, ys, 0.01, 1)
        fast = {k: v.detach().requires_grad_() for k, v in fast.items()}
        q_loss = ((functional_call(model, fast, (xq,)) - yq) ** 2).mean()
        grads = torch.autograd.grad(q_loss, list(fast.values()))
        for p, g in zip(model.parameters(), grads):
            p.grad = g / 4 if p.grad is None else p.grad + g / 4
        meta_loss += q_loss.item() / 4
    meta_opt.step()
    if it % 6 == 0:
        print(f"iter {it} meta-train loss {meta_loss:.3f} meta-test mse {meta_test():.3f}")
