"""Tiny VQ-VAE on 1-D signals with dead-code handling.

Every few steps we look at code usage; if too many codes are dead we grow
the codebook (new entries seeded from encoder outputs), which in our runs
works better than re-initialising them in place.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class VQ(nn.Module):
    def __init__(self, n_codes, dim, beta=0.25):
        super().__init__()
        self.codebook = nn.Parameter(torch.randn(n_codes, dim) * 0.1)
        self.beta = beta

    def forward(self, z):
        flat = z.reshape(-1, z.size(-1))
        dist = torch.cdist(flat, self.codebook)
        idx = dist.argmin(-1)
        q = self.codebook[idx].view_as(z)
        loss = F.mse_loss(q, z.detach()) + self.beta * F.mse_loss(z, q.detach())
        q = z + (q - z).detach()  # straight-through
        return q, loss, idx

    @torch.no_grad()
    def grow(self, n_new, samples):
        picks = samples[torch.randint(0, samples.size(0), (n_new,))]
        self.codebook = nn.Parameter(torch.cat([self.codebook.data, picks + 0.01 * torch.randn_like(picks)]))


class VQVAE(nn.Module):
    def __init__(self, n_codes=16, dim=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 32, 4, stride=2, padding=1), nn.ReLU(), nn.Conv1d(32, dim, 3, padding=1))
        self.vq = VQ(n_codes, dim)
        self.dec = nn.Sequential(nn.ConvTranspose1d(dim, 32, 4, stride=2, padding=1), nn.ReLU(), nn.Conv1d(32, 1, 3, padding=1))

    def forward(self, x):
        z = self.enc(x).transpose(1, 2)
        q, vq_loss, idx = self.vq(z)
        recon = self.dec(q.transpose(1, 2))
        return recon, vq_loss, idx, z


model = VQVAE()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

signals = torch.sin(torch.linspace(0, 20, 64)[None, None] * torch.rand(32, 1, 1) * 3)

for step in range(12):
    x = signals[torch.randperm(32)[:16]]
    recon, vq_loss, idx, z = compiled(x)
    loss = F.mse_loss(recon, x) + vq_loss
    opt.zero_grad()
    loss.backward()
    opt.step()

    if step % 4 == 3:
        used = idx.unique().numel()
        n_codes = model.vq.codebook.size(0)
        print(f"step {step} loss {loss.item():.4f} codes used {used}/{n_codes}")
        if used < 0.75 * n_codes:  # more than a quarter of the codes are dead
            model.vq.grow(8, z.detach().reshape(-1, z.size(-1)))
            opt = torch.optim.Adam(model.parameters(), lr=2e-3)
