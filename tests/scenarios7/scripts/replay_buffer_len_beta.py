"""DQN-style value learning from a growing replay buffer.

Transitions are appended to a plain Python list. The TD loss uses an
importance-sampling correction whose exponent `beta` ramps up with how
full the buffer is, as in prioritised replay.
"""

import random

import torch
from torch import nn

torch.manual_seed(0)
random.seed(0)

OBS, ACTIONS, CAPACITY, BATCH = 8, 4, 400, 32


class Agent:
    def __init__(self):
        self.q = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, ACTIONS))
        self.target = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, ACTIONS))
        self.target.load_state_dict(self.q.state_dict())
        self.buffer = []
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)

    @torch.compile(backend="aot_eager")
    def td_loss(self, obs, act, rew, nxt, done, prio):
        q = self.q(obs).gather(1, act[:, None]).squeeze(1)
        with torch.no_grad():
            target = rew + 0.99 * (1 - done) * self.target(nxt).max(1).values
        beta = 0.4 + 0.6 * min(1.0, len(self.buffer) / CAPACITY)
        weights = (len(self.buffer) * prio) ** (-beta)
        weights = weights / weights.max()
        return (weights * (q - target) ** 2).mean()

    def learn(self):
        batch = random.sample(self.buffer, BATCH)
        obs, act, rew, nxt, done = (torch.stack(t) for t in zip(*batch))
        prio = torch.rand(BATCH) * 0.01 + 1.0 / len(self.buffer)
        loss = self.td_loss(obs, act, rew, nxt, done, prio)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


agent = Agent()
obs = torch.randn(OBS)
for t in range(160):
    act = random.randrange(ACTIONS)
    nxt = obs + 0.1 * torch.randn(OBS)
    rew = torch.tensor(float(nxt[act] > 0))
    done = torch.tensor(float(t % 50 == 49))
    agent.buffer.append((obs, torch.tensor(act), rew, nxt, done))
    obs = torch.randn(OBS) if done else nxt
    if len(agent.buffer) >= 64 and t % 16 == 0:
        print(f"t {t} buffer {len(agent.buffer)} loss {agent.learn():.4f}")
