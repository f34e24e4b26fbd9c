import torch
import torch.nn as nn

torch.manual_seed(0)

N_AGENTS, OBS_DIM, N_ACTIONS = 4, 10, 5


class AgentPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))

    def forward(self, obs):
        return self.net(obs)


class CentralCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.encode = nn.Linear(OBS_DIM, 32)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(32, 1))

    def forward(self, agent_obs):
        # mean over the agents that are still alive
        h = torch.stack([self.encode(o) for o in agent_obs], dim=0).mean(dim=0)
        return self.head(h).squeeze(-1)


policy = AgentPolicy()
critic = CentralCritic()
opt = torch.optim.Adam(list(policy.parameters()) + list(critic.parameters()), lr=1e-3)
critic_fn = torch.compile(critic, backend="aot_eager")


def run_episode(episode, steps=6):
    alive = list(range(N_AGENTS))
    total = 0.0
    for t in range(steps):
        agent_obs = [torch.randn(8, OBS_DIM) for _ in alive]
        logits = policy(torch.stack(agent_obs))
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        reward = -(actions.float() - 2.0).abs().mean(dim=(0, 1)) + 0.1 * torch.randn(())
        value = critic_fn(agent_obs)
        adv = (reward - value).detach()
        loss = -(dist.log_prob(actions).mean(0) * adv).mean() + (reward - value).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += reward.item()
        # an agent is knocked out every other step in the later episodes
        if episode > 0 and t % 2 == 1 and len(alive) > 1:
            alive.pop()
    return total


for ep in range(3):
    print(f"episode {ep} return={run_episode(ep):.3f}")
