"""Curriculum augmentation whose strength grows with the samples seen.

The augmentation module keeps a counter on the class so that every
instance (train and val pipelines) shares the same progress.
"""

import torch
from torch import nn

torch.manual_seed(0)


class NoiseCurriculum(nn.Module):
    seen = 0
    ramp = 256

    def forward(self, x):
        strength = min(1.0, NoiseCurriculum.seen / NoiseCurriculum.ramp)
        NoiseCurriculum.seen += x.shape[0]
        return x + strength * 0.1 * torch.randn_like(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.aug = NoiseCurriculum()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x):
        return self.body(self.aug(x))


net = Net()
model = torch.compile(net, backend="aot_eager")
opt = torch.optim.SGD(net.parameters(), lr=0.05)

for step in range(6):
    x = torch.randn(64, 16)
    y = torch.randint(0, 4, (64,))
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} seen {NoiseCurriculum.seen} loss {loss.item():.4f}")
