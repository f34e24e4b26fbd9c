import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS = 6, 4


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, sigma0=0.5):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1.0 / math.sqrt(in_features)
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features).uniform_(-bound, bound))
        self.weight_sigma = nn.Parameter(torch.full((out_features, in_features), sigma0 * bound))
        self.bias_mu = nn.Parameter(torch.empty(out_features).uniform_(-bound, bound))
        self.bias_sigma = nn.Parameter(torch.full((out_features,), sigma0 * bound))
        self.register_buffer("eps_in", torch.zeros(in_features))
        self.register_buffer("eps_out", torch.zeros(out_features))
        self.reset_noise()

    @staticmethod
    def _f(x):
        return x.sign() * x.abs().sqrt()

    def reset_noise(self):
        self.eps_in.copy_(self._f(torch.randn(self.in_features)))
        self.eps_out.copy_(self._f(torch.randn(self.out_features)))

    def forward(self, x):
        if self.training:
            w = self.weight_mu + self.weight_sigma * torch.outer(self.eps_out, self.eps_in)
            b = self.bias_mu + self.bias_sigma * self.eps_out
            return F.linear(x, w, b)
        return F.linear(x, self.weight_mu, self.bias_mu)


class NoisyDQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.ReLU())
        self.hidden = NoisyLinear(64, 64)
        self.out = NoisyLinear(64, N_ACTIONS)

    def forward(self, obs):
        return self.out(F.relu(self.hidden(self.feature(obs))))

    def reset_noise(self):
        self.hidden.reset_noise()
        self.out.reset_noise()


online = NoisyDQN()
target = NoisyDQN()
target.load_state_dict(online.state_dict())
net = torch.compile(online, backend="aot_eager")
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def evaluate(n_episodes=2):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for _ in range(n_episodes):
            obs = torch.randn(32, OBS_DIM)
            total += net(obs).max(dim=1).values.mean().item()
    net.train()
    return total / n_episodes


for step in range(1, 13):
    # act in 32 parallel environments with the noisy (training-mode) network
    obs, next_obs = torch.randn(32, OBS_DIM), torch.randn(32, OBS_DIM)
    with torch.no_grad():
        actions = net(obs).argmax(dim=1)
    rewards = -(actions.float() - 1.5).abs() + 0.1 * torch.randn(32)
    q = net(obs).gather(1, actions[:, None]).squeeze(1)
    with torch.no_grad():
        tgt = rewards + 0.99 * target(next_obs).max(dim=1).values
    loss = F.mse_loss(q, tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    net.reset_noise()
    target.reset_noise()
    if step % 4 == 0:
        target.load_state_dict(online.state_dict())
        print(f"step {step} loss={loss.item():.4f} eval_q={evaluate():.4f}")
