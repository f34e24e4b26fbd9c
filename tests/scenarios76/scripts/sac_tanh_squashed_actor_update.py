import torch
import torch.nn as nn
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform

torch.manual_seed(0)

OBS_DIM, ACT_DIM, HIDDEN = 6, 2, 32


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU())
        self.mu = nn.Linear(HIDDEN, ACT_DIM)
        self.log_std = nn.Linear(HIDDEN, ACT_DIM)

    def forward(self, obs):
        h = self.body(obs)
        log_std = self.log_std(h).clamp(-5.0, 2.0)
        base = Normal(self.mu(h), log_std.exp())
        return TransformedDistribution(base, [TanhTransform(cache_size=1)])


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM + ACT_DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)


actor = Actor()
q1, q2 = Critic(), Critic()
actor_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
log_alpha = torch.zeros((), requires_grad=True)
alpha_opt = torch.optim.Adam([log_alpha], lr=3e-3)
target_entropy = -float(ACT_DIM)


@torch.compile(backend="aot_eager")
def actor_loss_fn(obs, alpha):
    dist = actor(obs)
    act = dist.rsample()
    logp = dist.log_prob(act).sum(-1)
    q = torch.min(q1(obs, act), q2(obs, act))
    return (alpha * logp - q).mean(), logp.detach()


def sample_batch(n=64):
    return torch.randn(n, OBS_DIM)


for step in range(6):
    obs = sample_batch()
    alpha = log_alpha.exp().item()
    loss, logp = actor_loss_fn(obs, alpha)
    actor_opt.zero_grad()
    loss.backward()
    actor_opt.step()

    alpha_loss = -(log_alpha * (logp + target_entropy)).mean()
    alpha_opt.zero_grad()
    alpha_loss.backward()
    alpha_opt.step()
    print(f"step {step} actor_loss={loss.item():.4f} alpha={alpha:.4f}")
