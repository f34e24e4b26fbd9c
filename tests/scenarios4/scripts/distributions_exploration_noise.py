"""A continuous-control policy with decaying exploration noise.

The actor outputs the mean action and the user samples actions from
`torch.distributions.Normal(mean, noise_std)`, where `noise_std` is a Python
float that decays by 10% after every episode. The compiled function returns
the sampled actions and their log-probabilities.
"""

import torch
from torch import nn
from torch.distributions import Normal

torch.manual_seed(0)

actor = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 2), nn.Tanh())


@torch.compile(backend="aot_eager")
def act(obs, noise_std):
    dist = Normal(actor(obs), noise_std)
    action = dist.sample()
    return action, dist.log_prob(action).sum(-1)


noise_std = 0.5
for episode in range(10):
    obs = torch.randn(16, 8)
    with torch.no_grad():
        action, logp = act(obs, noise_std)
    print(f"episode {episode} std {noise_std:.3f} mean logp {logp.mean().item():.3f}")
    noise_std *= 0.9
