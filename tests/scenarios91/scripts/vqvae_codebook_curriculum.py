"""Small VQ-VAE with a codebook-size curriculum.

Training starts with a few active codes and unlocks more of the codebook as
training goes on (a common trick against codebook collapse); the number of
active codes is an attribute of the quantizer.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Quantizer(nn.Module):
    def __init__(self, n_codes=64, dim=16):
        super().__init__()
        self.codebook = nn.Embedding(n_codes, dim)
        self.codebook.weight.data.uniform_(-1 / n_codes, 1 / n_codes)
        self.active = 8

    def forward(self, z):
        b, c, h, w = z.shape
        flat = z.permute(0, 2, 3, 1).contiguous().view(-1, c)
        codes = self.codebook.weight[: self.active]
        dist = (flat.pow(2).sum(1, keepdim=True) - 2 * flat @ codes.t()
                + codes.pow(2).sum(1))
        idx = dist.argmin(1)
        q = F.embedding(idx, codes).view(b, h, w, c).permute(0, 3, 1, 2).contiguous()
        commit = F.mse_loss(z, q.detach())
        embed = F.mse_loss(q, z.detach())
        q = z + (q - z).detach()  # straight-through
        return q, embed + 0.25 * commit, idx


class VQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 32, 4, 2, 1), nn.ReLU(), nn.Conv2d(32, 16, 4, 2, 1))
        self.vq = Quantizer()
        self.dec = nn.Sequential(nn.ConvTranspose2d(16, 32, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(32, 3, 4, 2, 1))

    def forward(self, x):
        q, vq_loss, idx = self.vq(self.enc(x))
        return self.dec(q), vq_loss, idx


model = VQVAE()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.rand(64, 3, 16, 16)
schedule = {0: 8, 2: 16, 4: 32}

for epoch in range(5):
    if epoch in schedule:
        model.vq.active = schedule[epoch]
    for i in range(0, 64, 32):
        x = data[i:i + 32]
        recon, vq_loss, idx = cmodel(x)
        loss = F.mse_loss(recon, x) + vq_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    used = torch.unique(idx).numel()
    print(f"epoch {epoch} active={model.vq.active} used={used} loss={loss.item():.4f}")
