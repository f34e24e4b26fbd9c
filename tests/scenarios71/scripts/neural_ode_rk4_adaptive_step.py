import torch
import torch.nn as nn

torch.manual_seed(0)


class Dynamics(nn.Module):
    def __init__(self, dim=3, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Softplus(), nn.Linear(hidden, dim))

    def forward(self, y):
        return self.net(y)


def rk4_step(f, y, dt):
    k1 = f(y)
    k2 = f(y + 0.5 * dt * k1)
    k3 = f(y + 0.5 * dt * k2)
    k4 = f(y + dt * k3)
    return y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def lorenz_like(y):
    x1, x2, x3 = y.unbind(-1)
    return torch.stack([10 * (x2 - x1), x1 * (2.8 - x3) - x2, x1 * x2 - 0.8 * x3], -1)


f = Dynamics()
step = torch.compile(rk4_step, backend="aot_eager")
opt = torch.optim.Adam(f.parameters(), lr=1e-3)

y0 = torch.randn(64, 3)
dt = 0.05
for it in range(10):
    # reference trajectory from the known system, integrated eagerly
    with torch.no_grad():
        target = rk4_step(lorenz_like, y0, dt)
    pred = step(f, y0, dt)
    loss = (pred - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    # crude step-size control on the local error
    err = loss.item()
    if err > 1e-2:
        dt = dt * 0.5
    elif err < 1e-4:
        dt = dt * 2.0
    print(f"iter {it} loss {err:.5f} dt {dt:.4f}")
