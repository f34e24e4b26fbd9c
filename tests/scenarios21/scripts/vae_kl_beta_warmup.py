"""beta-VAE on flattened 16x16 patches with KL warm-up.

The KL term is computed with torch.distributions and its weight `beta`
goes up linearly over the first epochs (to avoid posterior collapse).
"""

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Normal, kl_divergence

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d_in=256, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Linear(128, 2 * latent))
        self.dec = nn.Sequential(nn.Linear(latent, 128), nn.ReLU(), nn.Linear(128, d_in))

    def forward(self, x):
        mu, log_sigma = self.enc(x).chunk(2, dim=-1)
        q = Normal(mu, log_sigma.exp())
        z = q.rsample()
        return self.dec(z), mu, log_sigma


@torch.compile(backend="aot_eager")
def elbo_loss(x, recon, mu, log_sigma, beta):
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.shape[0]
    q = Normal(mu, log_sigma.exp())
    prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
    kl = kl_divergence(q, prior).sum(-1).mean()
    return rec + beta * kl, kl


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = (torch.rand(192, 256) > 0.7).float()

warmup_epochs = 4
for epoch in range(6):
    beta = min(1.0, (epoch + 1) / warmup_epochs)
    for i in range(0, len(data), 64):
        x = data[i:i + 64]
        recon, mu, log_sigma = model(x)
        loss, kl = elbo_loss(x, recon, mu, log_sigma, beta)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} beta {beta:.2f} loss {loss.item():.2f} kl {kl.item():.3f}")
