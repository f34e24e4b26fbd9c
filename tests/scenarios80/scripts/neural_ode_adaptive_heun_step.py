# Fit a learned vector field to a damped-pendulum trajectory, integrating with
# an embedded Heun-Euler pair and an adaptive step-size controller.
import torch
from torch import nn

torch.manual_seed(0)


class VectorField(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, 2))

    def forward(self, y):
        return self.net(y)


def true_rhs(y):
    th, om = y[..., 0], y[..., 1]
    return torch.stack([om, -torch.sin(th) - 0.1 * om], dim=-1)


def heun_euler_step(f, y, dt):
    k1 = f(y)
    k2 = f(y + dt * k1)
    y_high = y + 0.5 * dt * (k1 + k2)
    y_low = y + dt * k1
    err = (y_high - y_low).abs().max()
    return y_high, err


step = torch.compile(heun_euler_step, backend="aot_eager")


def make_data(n_traj=16, horizon=2.0, dt=0.01):
    y = torch.randn(n_traj, 2)
    t, ys = 0.0, [y]
    while t < horizon - 1e-9:
        k1 = true_rhs(y)
        k2 = true_rhs(y + dt * k1)
        y = y + 0.5 * dt * (k1 + k2)
        t += dt
        ys.append(y)
    return torch.stack(ys)  # (T, n, 2)


data = make_data()
field = VectorField()
opt = torch.optim.Adam(field.parameters(), lr=5e-3)
rtol = 1e-2
T_END = 1.0

for epoch in range(5):
    y = data[0]
    t = 0.0
    dt = 0.1
    loss = 0.0
    n_steps = 0
    while t < T_END and n_steps < 12:
        y_next, err = step(field, y, dt)
        t = t + float(dt)
        idx = min(int(round(t / 0.01)), data.shape[0] - 1)
        loss = loss + (y_next - data[idx]).pow(2).mean()
        y = y_next
        # step-size controller
        fac = 0.9 * (rtol / (err.detach() + 1e-10)) ** 0.5
        dt = dt * torch.clamp(fac, 0.2, 2.0)
        dt = torch.clamp(dt, max=T_END - t + 1e-6)
        n_steps += 1
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} steps={n_steps} loss={loss.item():.4f}")
