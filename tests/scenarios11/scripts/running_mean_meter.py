"""Training loop with a small running-average meter for the loss.

The meter keeps a Python count and a running mean; the compiled step updates
it so the printed loss is smoothed.
"""

import torch
from torch import nn

torch.manual_seed(0)


class RunningMean:
    def __init__(self):
        self.count = 0
        self.mean = 0.0

    def update(self, value):
        self.count += 1
        self.mean = self.mean + (value - self.mean) / self.count


model = nn.Sequential(nn.Linear(20, 48), nn.Tanh(), nn.Linear(48, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.02)
meter = RunningMean()


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
    meter.update(loss.detach())
    return loss


x = torch.randn(32, 20)
y = torch.randn(32)
for step in range(6):
    loss = train_step(x, y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f} smoothed {float(meter.mean):.4f}")
