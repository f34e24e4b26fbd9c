"""Tiny convolutional VAE on random 16x16 images with a KL warm-up.

The loss module keeps the KL weight as a float attribute that a warm-up
schedule raises once per epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvVAE(nn.Module):
    def __init__(self, z=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.SiLU(),
                                 nn.Conv2d(16, 32, 4, 2, 1), nn.SiLU(), nn.Flatten())
        self.to_stats = nn.Linear(32 * 4 * 4, 2 * z)
        self.from_z = nn.Linear(z, 32 * 4 * 4)
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.SiLU(),
                                 nn.ConvTranspose2d(16, 3, 4, 2, 1))

    def forward(self, x):
        mu, logvar = self.to_stats(self.enc(x)).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        recon = self.dec(self.from_z(z).view(-1, 32, 4, 4))
        return recon, mu, logvar


class ELBOLoss(nn.Module):
    def __init__(self, vae):
        super().__init__()
        self.vae = vae
        self.kl_weight = 0.0

    def forward(self, x):
        recon, mu, logvar = self.vae(x)
        rec = F.mse_loss(recon, x, reduction="sum") / x.shape[0]
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.shape[0]
        return rec + self.kl_weight * kl, rec.detach(), kl.detach()


vae = ConvVAE()
criterion = ELBOLoss(vae)
step_fn = torch.compile(criterion, backend="aot_eager")
opt = torch.optim.Adamax(vae.parameters(), lr=2e-3)

data = torch.rand(96, 3, 16, 16) * 2 - 1
warmup_epochs = 3

for epoch in range(4):
    # linear KL annealing, capped at 1.0
    criterion.kl_weight = min(1.0, epoch / warmup_epochs)
    for i in range(0, 96, 32):
        loss, rec, kl = step_fn(data[i:i + 32])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    print(f"epoch {epoch} beta={criterion.kl_weight:.2f} rec={rec.item():.2f} kl={kl.item():.2f}")
