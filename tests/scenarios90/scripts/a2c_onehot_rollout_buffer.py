"""A2C on a toy navigation task (steer a point to a goal with five thruster
commands) with a OneHotCategorical policy, n-step rollouts cut at episode end."""
import torch
import torch.nn as nn
from torch.distributions import OneHotCategorical

torch.manual_seed(0)
N_STEPS, EP_LEN, GAMMA = 16, 40, 0.97


class PointEnv:
    def reset(self):
        self.pos = torch.rand(2) * 2 - 1
        self.goal = torch.rand(2) * 2 - 1
        self.t = 0
        return self.obs()

    def obs(self):
        return torch.cat([self.pos, self.goal - self.pos])

    MOVES = torch.tensor([[0.0, 0.0], [0.1, 0.0], [-0.1, 0.0], [0.0, 0.1], [0.0, -0.1]])

    def step(self, action):  # one-hot over MOVES
        self.pos = (self.pos + action @ self.MOVES).clamp(-1, 1)
        self.t += 1
        reward = -(self.goal - self.pos).norm().item()
        return self.obs(), reward, self.t >= EP_LEN


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.logits = nn.Linear(64, 5)
        self.value = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.logits(h), self.value(h).squeeze(-1)


agent = ActorCritic()
opt = torch.optim.RMSprop(agent.parameters(), lr=7e-4)


@torch.compile(backend="aot_eager")
def a2c_loss(obs, actions, returns):
    logits, values = agent(obs)
    dist = OneHotCategorical(logits=logits)
    logp = dist.log_prob(actions)
    adv = returns - values
    policy_loss = -(logp * adv.detach()).mean()
    value_loss = adv.pow(2).mean()
    return policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()


env = PointEnv()
obs = env.reset()
for update in range(12):
    buf_obs, buf_act, buf_rew = [], [], []
    done = False
    while len(buf_obs) < N_STEPS and not done:
        with torch.no_grad():
            logits, _ = agent(obs)
            action = OneHotCategorical(logits=logits).sample()
        nxt, r, done = env.step(action)
        buf_obs.append(obs); buf_act.append(action); buf_rew.append(r)
        obs = nxt
    with torch.no_grad():
        running = 0.0 if done else agent(obs)[1].item()
    returns = []
    for r in reversed(buf_rew):
        running = r + GAMMA * running
        returns.append(running)
    returns = torch.tensor(returns[::-1])
    loss = a2c_loss(torch.stack(buf_obs), torch.stack(buf_act), returns)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
    opt.step()
    if done:
        print(f"update {update} episode return {sum(buf_rew):.2f}")
        obs = env.reset()
