import math

import torch
import torch.nn as nn

torch.manual_seed(0)

OBS, ACT, N_ENVS = 6, 2, 16


class PointMassEnvs:
    """Vectorised toy environment: push a point mass towards the origin."""

    def __init__(self, n):
        self.n = n
        self.state = torch.randn(n, OBS)

    def step(self, action):
        self.state[:, :ACT] += 0.1 * action
        self.state[:, ACT:] *= 0.95
        reward = -self.state[:, :ACT].pow(2).sum(1) - 0.01 * action.pow(2).sum(1)
        return self.state.clone(), reward


class GaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 64), nn.Tanh(), nn.Linear(64, ACT))
        self.noise_std = 0.5

    def forward(self, obs):
        mean = self.body(obs)
        action = (mean + self.noise_std * torch.randn_like(mean)).detach()
        z = (action - mean) / self.noise_std
        log_prob = (-0.5 * z.pow(2) - math.log(self.noise_std)).sum(1)
        return action, log_prob


envs = PointMassEnvs(N_ENVS)
policy = GaussianPolicy()
opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
act = torch.compile(policy, backend="aot_eager")

obs = envs.state.clone()
for update in range(12):
    log_probs, rewards = [], []
    for t in range(8):
        action, lp = act(obs)
        obs, r = envs.step(action)
        log_probs.append(lp)
        rewards.append(r)
    returns = torch.stack(rewards).flip(0).cumsum(0).flip(0)
    adv = (returns - returns.mean()) / (returns.std() + 1e-6)
    loss = -(torch.stack(log_probs) * adv).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if update % 3 == 2:
        policy.noise_std = max(0.05, policy.noise_std * 0.7)
    print(f"update {update} return {returns[0].mean().item():.3f} std {policy.noise_std:.3f}")
