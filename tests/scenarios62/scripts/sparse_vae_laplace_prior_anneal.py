import torch
import torch.nn as nn
from torch.distributions import Laplace, Normal, kl_divergence

torch.manual_seed(0)


class SparseVAE(nn.Module):
    def __init__(self, d_in=20, d_lat=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 2 * d_lat))
        self.dec = nn.Sequential(nn.Linear(d_lat, 32), nn.ReLU(), nn.Linear(32, d_in))
        self.prior_scale = 1.0

    def forward(self, x):
        mu, log_std = self.enc(x).chunk(2, dim=-1)
        q = Normal(mu, log_std.exp())
        z = q.rsample()
        recon = self.dec(z)
        prior = Laplace(torch.zeros_like(mu), torch.full_like(mu, self.prior_scale))
        # Monte Carlo KL against the Laplace prior
        kl = (q.log_prob(z) - prior.log_prob(z)).sum(-1).mean()
        rec = (recon - x).pow(2).sum(-1).mean()
        return rec, kl


model = SparseVAE()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(96, 20)

for epoch in range(4):
    # tighten the prior as training goes on
    model.prior_scale = max(0.25, 1.0 / (1 + epoch))
    for i in range(0, 96, 32):
        rec, kl = cmodel(data[i : i + 32])
        loss = rec + 0.1 * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} scale={model.prior_scale:.3f} rec={rec.item():.3f} kl={kl.item():.3f}")

with torch.no_grad():
    ref = kl_divergence(Normal(torch.zeros(3), torch.ones(3)), Normal(torch.zeros(3), torch.ones(3)))
print("sanity", float(ref.sum()))
