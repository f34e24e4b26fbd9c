import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS, GAMMA = 8, 4, 0.99
SYNC_EVERY = 5


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, N_ACTIONS))

    def forward(self, obs):
        return self.net(obs)


class ReplayBuffer:
    def __init__(self, capacity=2048):
        self.obs = torch.randn(capacity, OBS_DIM)
        self.next_obs = torch.randn(capacity, OBS_DIM)
        self.actions = torch.randint(0, N_ACTIONS, (capacity,))
        self.rewards = torch.randn(capacity)
        self.dones = (torch.rand(capacity) < 0.05).float()
        self.capacity = capacity

    def sample(self, batch_size):
        idx = torch.randint(0, self.capacity, (batch_size,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


q_net = QNet()
target_net = copy.deepcopy(q_net)
target_net.requires_grad_(False)
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
buffer = ReplayBuffer()


@torch.compile(backend="aot_eager")
def td_loss(obs, actions, rewards, next_obs, dones):
    q = q_net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_actions = q_net(next_obs).argmax(dim=1, keepdim=True)
        next_q = target_net(next_obs).gather(1, next_actions).squeeze(1)
        target = rewards + GAMMA * (1.0 - dones) * next_q
    return F.smooth_l1_loss(q, target)


for step in range(1, 21):
    batch = buffer.sample(32)
    loss = td_loss(*batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % SYNC_EVERY == 0:
        target_net = copy.deepcopy(q_net)
        print(f"step {step} loss={loss.item():.4f} (target synced)")
