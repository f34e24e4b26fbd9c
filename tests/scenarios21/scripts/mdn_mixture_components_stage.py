"""Mixture density network for a multimodal 1-D regression problem.

The output distribution is a Gaussian mixture (MixtureSameFamily). We start
with few components and, once the loss plateaus, rebuild the head with more
components and keep training the shared trunk.
"""

import math

import torch
from torch import nn
from torch.distributions import Categorical, MixtureSameFamily, Normal

torch.manual_seed(0)


class MDNHead(nn.Module):
    def __init__(self, hidden, k):
        super().__init__()
        self.k = k
        self.proj = nn.Linear(hidden, 3 * k)

    def forward(self, h):
        logits, mu, log_sigma = self.proj(h).chunk(3, dim=-1)
        return logits, mu, log_sigma.clamp(-5, 3).exp()


@torch.compile(backend="aot_eager")
def mixture_nll(logits, mu, sigma, y):
    mix = MixtureSameFamily(Categorical(logits=logits), Normal(mu, sigma), validate_args=False)
    return -mix.log_prob(y.squeeze(-1)).mean()


trunk = nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())

# inverse problem: x = y + 0.3 sin(2 pi y) + noise, predict y from x (multi-valued)
y = torch.rand(512, 1)
x = y + 0.3 * torch.sin(2 * math.pi * y) + 0.05 * torch.randn(y.shape)

for k in [2, 2, 5, 8]:  # components per stage (first stage twice: restart)
    head = MDNHead(64, k)
    opt = torch.optim.Adam(list(trunk.parameters()) + list(head.parameters()), lr=5e-3)
    for step in range(15):
        idx = torch.randint(0, 512, (128,))
        logits, mu, sigma = head(trunk(x[idx]))
        loss = mixture_nll(logits, mu, sigma, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"k={k} nll {loss.item():.3f}")
