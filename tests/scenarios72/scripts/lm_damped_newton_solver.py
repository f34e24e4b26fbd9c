import torch
import torch.nn as nn
from torch.func import jacfwd

torch.manual_seed(0)

# fit the 4 parameters of a tiny kinetic model to noisy measurements
t = torch.linspace(0.0, 4.0, 24)


def model_fn(theta, t):
    a, k1, b, k2 = theta.unbind()
    return a * torch.exp(-k1 * t) + b * torch.exp(-k2 * t)


def residual(theta, t, y):
    return model_fn(theta, t) - y


def lm_step(theta, t, y, lam):
    r = residual(theta, t, y)
    J = jacfwd(residual)(theta, t, y)
    A = J.T @ J
    A = A + lam * torch.diag(torch.diagonal(A))
    delta = torch.linalg.solve(A, -J.T @ r)
    new_theta = theta + delta
    return new_theta, r.pow(2).sum(), residual(new_theta, t, y).pow(2).sum()


step = torch.compile(lm_step, backend="aot_eager")

true_theta = torch.tensor([2.0, 1.3, 0.7, 0.2])
y = model_fn(true_theta, t) + 0.01 * torch.randn_like(t)
theta = torch.tensor([1.0, 0.5, 1.0, 0.05])
lam = 1e-2
for it in range(10):
    cand, cost, new_cost = step(theta, t, y, lam)
    if new_cost < cost:
        theta = cand
        lam = max(lam / 10.0, 1e-4)
    else:
        lam = lam * 10.0
    print(it, lam, round(float(cost), 6), round(float(new_cost), 6))
print(theta.tolist())
