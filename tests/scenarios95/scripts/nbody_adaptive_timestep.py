"""Gravitational N-body integrator with an adaptive time step.

The compiled leapfrog step takes dt as a Python float; when the energy
drift is too large the step is halved.
"""
import torch

torch.manual_seed(0)

N = 64
G = 1.0
SOFTENING = 0.05


def accelerations(pos, mass):
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)
    dist2 = (diff ** 2).sum(-1) + SOFTENING ** 2
    inv3 = dist2.pow(-1.5)
    return G * (diff * (mass.unsqueeze(0) * inv3).unsqueeze(-1)).sum(1)


@torch.compile(backend="aot_eager")
def leapfrog(pos, vel, mass, dt):
    vel = vel + 0.5 * dt * accelerations(pos, mass)
    pos = pos + dt * vel
    vel = vel + 0.5 * dt * accelerations(pos, mass)
    return pos, vel


def energy(pos, vel, mass):
    kin = 0.5 * (mass * (vel ** 2).sum(-1)).sum()
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)
    r = ((diff ** 2).sum(-1) + SOFTENING ** 2).sqrt()
    pot = -0.5 * G * (mass.unsqueeze(0) * mass.unsqueeze(1) / r).triu(1).sum() * 2
    return (kin + pot).item()


pos = torch.randn(N, 3)
vel = torch.randn(N, 3) * 0.3
mass = torch.rand(N) * 0.1 + 0.01
dt = 0.08
e0 = energy(pos, vel, mass)

for block in range(5):
    for _ in range(10):
        pos, vel = leapfrog(pos, vel, mass, dt)
    e = energy(pos, vel, mass)
    drift = abs(e - e0) / abs(e0)
    print(f"block {block} dt {dt} rel energy drift {drift:.2e}")
    if drift > 1e-3 and dt > 0.01:
        dt = dt / 2
