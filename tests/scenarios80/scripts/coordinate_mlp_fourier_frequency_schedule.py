# Coordinate MLP fitting a 1-D signal with random-phase-free positional Fourier
# features; frequency bands are unlocked coarse-to-fine as training proceeds.
import math

import torch
from torch import nn

torch.manual_seed(0)


class FourierFeatures(nn.Module):
    def __init__(self, max_freqs=8):
        super().__init__()
        self.max_freqs = max_freqs
        self.num_freqs = 2
        self.register_buffer("bands", torch.logspace(0, max_freqs - 1, max_freqs, base=2.0) * math.pi)

    def forward(self, x):
        b = self.bands[: self.num_freqs]
        ang = x[..., None] * b
        feats = torch.cat([torch.sin(ang), torch.cos(ang)], dim=-1)
        pad = 2 * (self.max_freqs - self.num_freqs)
        feats = nn.functional.pad(feats, (0, pad))
        return torch.cat([x[..., None], feats], dim=-1)


class CoordMLP(nn.Module):
    def __init__(self, max_freqs=8, width=64):
        super().__init__()
        self.enc = FourierFeatures(max_freqs)
        self.mlp = nn.Sequential(nn.Linear(1 + 2 * max_freqs, width), nn.ReLU(),
                                 nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 1))

    def forward(self, x):
        return self.mlp(self.enc(x)).squeeze(-1)


def target(x):
    return torch.sin(2 * math.pi * x) + 0.3 * torch.sin(14 * math.pi * x) + 0.1 * torch.sin(40 * math.pi * x)


model = CoordMLP()
net = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

x_train = torch.rand(512)
y_train = target(x_train)
x_val = torch.linspace(0, 1, 200)

total_steps = 60
for step in range(total_steps):
    # unlock one more band every 10 steps
    model.enc.num_freqs = min(model.enc.max_freqs, 2 + step // 10)
    idx = torch.randint(0, 512, (128,))
    pred = net(x_train[idx])
    loss = (pred - y_train[idx]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        with torch.no_grad():
            val = (net(x_val) - target(x_val)).pow(2).mean()
        print(f"step {step} bands={model.enc.num_freqs} loss={loss.item():.4f} val={val.item():.4f}")
