import torch
import torch.nn as nn

torch.manual_seed(0)

DIM = 2


class LearnedPotential(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, DIM))

    def forward(self, q):
        # force field predicted directly
        return self.net(q) - q


def leapfrog(force_fn, q, p, dt, n_steps):
    traj = []
    p = p + 0.5 * dt * force_fn(q)
    for _ in range(n_steps):
        q = q + dt * p
        p = p + dt * force_fn(q)
        traj.append(q)
    p = p - 0.5 * dt * force_fn(q)
    return torch.stack(traj, dim=1), q, p


integrate = torch.compile(leapfrog, backend="aot_eager")

# ground truth: harmonic oscillator
true_force = lambda q: -q
q0 = torch.randn(64, DIM)
p0 = torch.randn(64, DIM)
with torch.no_grad():
    true_traj, _, _ = leapfrog(true_force, q0, p0, 0.1, 8)

model = LearnedPotential()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def energy(q, p):
    return 0.5 * (q.pow(2) + p.pow(2)).sum(-1)


for epoch in range(3):
    for it in range(4):
        traj, _, _ = integrate(model, q0, p0, 0.1, 8)
        loss = (traj - true_traj).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    # audit energy drift over a long rollout in double precision
    with torch.no_grad():
        model64 = model.double()
        q, p = q0.double(), p0.double()
        _, qT, pT = integrate(model64, q, p, 0.1, 8)
        drift = (energy(qT, pT) - energy(q, p)).abs().mean().item()
        model.float()
    print(f"epoch {epoch} loss={loss.item():.5f} energy_drift={drift:.5f}")
