"""Least-squares GAN on random 2-D "images" with two optimizers.

The discriminator is compiled on its own; during the generator update its
parameters are frozen with requires_grad_(False) and thawed afterwards.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

Z = 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(Z, 64 * 4 * 4)
        self.up = nn.Sequential(
            nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(64, 32, 3, padding=1),
            nn.GroupNorm(8, 32), nn.LeakyReLU(0.2),
            nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(32, 1, 3, padding=1), nn.Tanh())

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 64, 4, 4))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(64 * 4 * 4, 1))

    def forward(self, x):
        return self.net(x).squeeze(1)


G, D = Generator(), Discriminator()
D_c = torch.compile(D, backend="aot_eager")
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))

real_data = torch.tanh(torch.randn(128, 1, 16, 16))

for step in range(6):
    real = real_data[(step * 32) % 128:(step * 32) % 128 + 32]
    z = torch.randn(32, Z)

    # --- discriminator update (LSGAN: real -> 1, fake -> 0)
    fake = G(z).detach()
    d_loss = 0.5 * ((D_c(real) - 1).pow(2).mean() + D_c(fake).pow(2).mean())
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # --- generator update with D frozen
    D.requires_grad_(False)
    g_loss = 0.5 * (D_c(G(z)) - 1).pow(2).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    D.requires_grad_(True)

    print(f"step {step} d={d_loss.item():.3f} g={g_loss.item():.3f}")
