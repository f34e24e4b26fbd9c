"""A binary-latent VAE trained with a relaxed Bernoulli posterior.

The encoder gives logits for 16 binary codes; the user samples them with
`RelaxedBernoulli(temperature=tau, logits=...)` so gradients flow, and
anneals `tau` after every epoch, as in the Gumbel-softmax papers. The KL
term is against a uniform Bernoulli prior.
"""

import math

import torch
from torch import nn
from torch.distributions import Bernoulli, RelaxedBernoulli, kl_divergence

torch.manual_seed(0)

LATENT = 16

encoder = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, LATENT))
decoder = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(), nn.Linear(128, 64))
params = list(encoder.parameters()) + list(decoder.parameters())
opt = torch.optim.Adam(params, lr=1e-3)

@torch.compile(backend="aot_eager")
def elbo_loss(x, tau):
    logits = encoder(x)
    q = RelaxedBernoulli(temperature=torch.tensor(tau), logits=logits, validate_args=False)
    z = q.rsample()
    recon = decoder(z)
    rec = nn.functional.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.shape[0]
    post = Bernoulli(logits=logits, validate_args=False)
    prior = Bernoulli(logits=torch.zeros_like(logits), validate_args=False)
    kl = kl_divergence(post, prior).sum(-1).mean()
    return rec + kl, kl


# toy binarised "images": 64-pixel patterns
data = (torch.rand(512, 64) > 0.7).float()

tau0, tau_min, rate = 1.0, 0.5, 3e-1
for epoch in range(5):
    tau = max(tau_min, tau0 * math.exp(-rate * epoch))
    total = 0.0
    for i in range(0, 512, 128):
        x = data[i : i + 128]
        loss, kl = elbo_loss(x, tau)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} tau {tau:.3f} loss {total / 4:.2f} kl {kl.item():.2f}")
