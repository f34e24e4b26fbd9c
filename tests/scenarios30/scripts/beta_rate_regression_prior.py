"""Predicting click-through rates with a Beta output distribution.

The model outputs the two concentrations of a Beta per item, trained by
negative log-likelihood plus a sampled KL term toward a prior. For the first epochs
the prior is a flat Beta(1, 1); once enough data has been seen the user
switches to a prior fitted per campaign from historical rates.
"""

import torch
from torch import nn
from torch.distributions import Beta, Distribution

torch.manual_seed(0)
# the argument checks cost more than the loss itself on these small batches
Distribution.set_default_validate_args(False)

N_CAMPAIGNS = 6

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2), nn.Softplus())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def loss_fn(features, rates, prior, kl_weight):
    conc = model(features) + 1e-3
    pred = Beta(conc[:, 0], conc[:, 1])
    nll = -pred.log_prob(rates.clamp(1e-4, 1 - 1e-4)).mean()
    # one-sample Monte Carlo estimate of KL(pred || prior)
    z = pred.rsample().clamp(1e-4, 1 - 1e-4)
    kl = pred.log_prob(z) - prior.log_prob(z)
    return nll + kl_weight * kl.mean()


def batch_of(n=N_CAMPAIGNS * 8):
    features = torch.randn(n, 12)
    rates = torch.sigmoid(features[:, 0] - 2) * 0.5
    return features, rates


flat_prior = Beta(torch.tensor(1.0), torch.tensor(1.0))
history = torch.rand(N_CAMPAIGNS, 200) * 0.2
mean, var = history.mean(1), history.var(1)
common = mean * (1 - mean) / var - 1
campaign_prior = Beta((mean * common).repeat(8), ((1 - mean) * common).repeat(8))

for epoch in range(6):
    prior = flat_prior if epoch < 3 else campaign_prior
    features, rates = batch_of()
    loss = loss_fn(features, rates, prior, 0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
