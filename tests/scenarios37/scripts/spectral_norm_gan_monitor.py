"""Train a tiny hinge-loss GAN on 2-D ring data with a spectrally normalised
discriminator; every few steps the discriminator scores a held-out real batch
for the training log.
"""
import math

import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)

Z = 8


def ring(n):
    theta = 2 * math.pi * torch.rand(n)
    r = 2.0 + 0.1 * torch.randn(n)
    return torch.stack([r * theta.cos(), r * theta.sin()], dim=1)


generator = nn.Sequential(nn.Linear(Z, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
critic = nn.Sequential(
    spectral_norm(nn.Linear(2, 64)),
    nn.LeakyReLU(0.2),
    spectral_norm(nn.Linear(64, 64)),
    nn.LeakyReLU(0.2),
    spectral_norm(nn.Linear(64, 1)),
)
D = torch.compile(critic, backend="aot_eager")

opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))
held_out = ring(128)

for step in range(12):
    real = ring(64)
    fake = generator(torch.randn(64, Z))

    d_loss = torch.relu(1 - D(real)).mean() + torch.relu(1 + D(fake.detach())).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = -D(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    if step % 4 == 3:
        critic.eval()
        with torch.no_grad():
            realism = D(held_out).mean().item()
        critic.train()
        print(f"step {step} d_loss={d_loss.item():.4f} g_loss={g_loss.item():.4f} held_out={realism:.3f}")
