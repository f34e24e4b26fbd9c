import torch
import torch.nn as nn
from torch.distributions import Independent, Normal

torch.manual_seed(0)


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def forward(self, obs):
        mean = self.body(obs)
        std = self.log_std.exp().expand_as(mean)
        if mean.shape[-1] == 1:
            return Normal(mean.squeeze(-1), std.squeeze(-1), validate_args=False)
        return Independent(Normal(mean, std, validate_args=False), 1, validate_args=False)


@torch.compile(backend="aot_eager")
def ppo_loss(dist, actions, old_logp, adv, clip=0.2):
    logp = dist.log_prob(actions)
    ratio = torch.exp(logp - old_logp)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1 - clip, 1 + clip) * adv
    return -torch.min(unclipped, clipped).mean() - 0.01 * dist.entropy().mean()


# one policy per task: a pendulum-like task with one action, an arm with three
envs = {"pendulum": (3, 1), "reacher": (8, 3)}
policies = {name: GaussianPolicy(o, a) for name, (o, a) in envs.items()}
opts = {name: torch.optim.Adam(p.parameters(), lr=3e-4) for name, p in policies.items()}

for it in range(3):
    for name, (obs_dim, act_dim) in envs.items():
        policy = policies[name]
        obs = torch.randn(64, obs_dim)
        with torch.no_grad():
            d = policy(obs)
            actions = d.sample()
            old_logp = d.log_prob(actions)
        adv = torch.randn(64)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(2):
            loss = ppo_loss(policy(obs), actions, old_logp, adv)
            opts[name].zero_grad()
            loss.backward()
            opts[name].step()
        print(f"iter {it} {name}: loss={loss.item():.4f}")
