"""StyleGAN-style discriminator training with lazy R1 regularisation.

The gradient penalty on real images is only computed every R1_EVERY steps
(and scaled up accordingly) because it needs a double backward.
"""

import torch
from torch import nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(16, 64), nn.LeakyReLU(0.2), nn.Linear(64, 32))
D = nn.Sequential(nn.Linear(32, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.0, 0.99))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.99))

R1_GAMMA = 10.0
R1_EVERY = 4


# aot_eager cannot differentiate its own graph twice on our torch
@torch.compile(backend="eager")
def d_loss_fn(real, fake, do_r1):
    real = real.detach().requires_grad_(do_r1)
    real_logits = D(real)
    loss = nn.functional.softplus(D(fake)).mean() + nn.functional.softplus(-real_logits).mean()
    if do_r1:
        (grad,) = torch.autograd.grad(real_logits.sum(), real, create_graph=True)
        loss = loss + (R1_GAMMA / 2) * grad.pow(2).sum(1).mean() * R1_EVERY
    return loss


def sample_real(n=64):
    return torch.randn(n, 32) * 0.5 + 1.0


for step in range(9):
    z = torch.randn(64, 16)
    fake = G(z).detach()
    d_loss = d_loss_fn(sample_real(), fake, step % R1_EVERY == 0)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    g_loss = nn.functional.softplus(-D(G(torch.randn(64, 16)))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f}")
