"""Smooth-activation MLP regressor with a sharpness schedule.

We start with a soft Softplus (beta=1) for well-behaved early gradients and
switch to a sharp one (beta=10, close to ReLU) for fine-tuning, and back to
the soft one for a short cool-down.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

soft = nn.Softplus(beta=1.0)
sharp = nn.Softplus(beta=10.0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 64)
        self.act = soft
        self.fc2 = nn.Linear(64, 64)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h = self.act(self.fc1(x))
        h = self.act(self.fc2(h))
        return self.out(h)


def schedule(epoch):
    return sharp if 2 <= epoch < 4 else soft


model = Regressor()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
w_true = torch.randn(8, 1)

for epoch in range(5):
    model.act = schedule(epoch)
    for _ in range(3):
        x = torch.randn(128, 8)
        y = torch.sin(x @ w_true)
        loss = F.mse_loss(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} beta {model.act.beta} loss {loss.item():.4f}")
