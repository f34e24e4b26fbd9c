"""WGAN-GP on a 2-D toy distribution (8 gaussians on a ring).

The critic step (Wasserstein loss + gradient penalty) is compiled. The
penalty weight is ramped up over the first iterations, which in our runs
keeps the critic from collapsing early on.
"""

import math

import torch
from torch import nn

torch.manual_seed(0)

gen = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
critic = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))

N_CRITIC = 3
LAMBDA_MAX = 10.0
WARMUP_ITERS = 4


def sample_real(n):
    k = torch.randint(0, 8, (n,))
    angle = k.float() * (2 * math.pi / 8)
    centers = torch.stack([angle.cos(), angle.sin()], dim=1) * 2.0
    return centers + 0.05 * torch.randn(n, 2)


@torch.compile(backend="eager")  # aot_eager refuses the double backward of the penalty
def critic_loss(real, fake, gp_weight):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads = torch.autograd.grad(out.sum(), interp, create_graph=True)[0]
    penalty = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    wdist = critic(real).mean() - critic(fake).mean()
    return -wdist + gp_weight * penalty, wdist


for it in range(8):
    gp_weight = LAMBDA_MAX * min(1.0, (it + 1) / WARMUP_ITERS)
    for _ in range(N_CRITIC):
        real = sample_real(128)
        with torch.no_grad():
            fake = gen(torch.randn(128, 8))
        loss_c, wdist = critic_loss(real, fake, gp_weight)
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()

    loss_g = -critic(gen(torch.randn(128, 8))).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    print(f"iter {it} lambda {gp_weight:.1f} W {wdist.item():.4f} G {loss_g.item():.4f}")
