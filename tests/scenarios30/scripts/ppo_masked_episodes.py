"""PPO on a toy grid game where some moves are illegal in some cells.

The policy's logits are masked with the legal-move mask before building a
Categorical. Rollouts are collected one episode at a time, and an episode
ends when the agent reaches the goal, so each update sees however many
steps that episode took.
"""

import torch
from torch import nn
from torch.distributions import Categorical

torch.manual_seed(0)

N_ACTIONS = 4


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 64), nn.Tanh())
        self.pi = nn.Linear(64, N_ACTIONS)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


policy = Policy()
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)


@torch.compile(backend="aot_eager")
def ppo_loss(obs, masks, actions, old_logp, returns, clip=0.2):
    logits, values = policy(obs)
    logits = logits.masked_fill(~masks, -1e9)
    dist = Categorical(logits=logits)
    logp = dist.log_prob(actions)
    adv = returns - values.detach()
    ratio = (logp - old_logp).exp()
    pg = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
    return pg + 0.5 * (returns - values).pow(2).mean() - 0.01 * dist.entropy().mean()


def run_episode(max_len=40):
    obs, masks, actions, logps, rewards = [], [], [], [], []
    pos = torch.zeros(2)
    for t in range(max_len):
        o = torch.cat([pos / 5, torch.randn(4)])
        m = torch.tensor([pos[0] < 5, pos[0] > 0, pos[1] < 5, pos[1] > 0])
        with torch.no_grad():
            logits, _ = policy(o)
            d = Categorical(logits=logits.masked_fill(~m, -1e9))
            a = d.sample()
        pos = pos + torch.tensor([[1, 0], [-1, 0], [0, 1], [0, -1]])[a]
        obs.append(o), masks.append(m), actions.append(a), logps.append(d.log_prob(a))
        done = bool((pos == 5).all())
        rewards.append(1.0 if done else -0.01)
        if done:
            break
    ret, returns = 0.0, []
    for r in reversed(rewards):
        ret = r + 0.99 * ret
        returns.insert(0, ret)
    return (torch.stack(obs), torch.stack(masks), torch.stack(actions),
            torch.stack(logps), torch.tensor(returns))


for update in range(5):
    batch = run_episode()
    for epoch in range(2):
        loss = ppo_loss(*batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"update {update} episode length {batch[0].shape[0]} loss {loss.item():.4f}")
