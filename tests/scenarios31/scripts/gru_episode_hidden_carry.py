"""Recurrent value model for an RL agent trained on fixed-length rollouts.

Each episode is 40 steps long and is cut into chunks of 16 steps. The GRU
hidden state is carried from chunk to chunk (detached) and thrown away when
a new episode starts.
"""

import torch
from torch import nn

torch.manual_seed(0)

OBS, HIDDEN, CHUNK, EPISODE_LEN = 12, 32, 16, 40


class ValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS, HIDDEN)
        self.gru = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.value = nn.Linear(HIDDEN, 1)

    def forward(self, obs, hidden=None):
        z = torch.tanh(self.encoder(obs))
        out, hidden = self.gru(z, hidden)
        return self.value(out).squeeze(-1), hidden


net = ValueNet()
compiled = torch.compile(net, backend="aot_eager")
opt = torch.optim.Adam(net.parameters(), lr=3e-4)

n_envs = 8
for episode in range(3):
    obs = torch.randn(n_envs, EPISODE_LEN, OBS)
    returns = torch.randn(n_envs, EPISODE_LEN).cumsum(1).flip(1)
    hidden = None  # fresh episode: no memory
    for start in range(0, EPISODE_LEN, CHUNK):
        chunk_obs = obs[:, start:start + CHUNK]
        chunk_ret = returns[:, start:start + CHUNK]
        values, hidden = compiled(chunk_obs, hidden)
        loss = (values - chunk_ret).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        hidden = hidden.detach()
        print(f"episode {episode} steps {start}-{start + chunk_obs.shape[1]} loss {loss.item():.3f}")
