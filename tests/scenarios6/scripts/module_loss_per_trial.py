"""Small hyper-parameter search over the activation and the loss module.

A regression MLP is trained briefly for each trial of a grid. The compiled
train step takes the activation and the criterion as nn.Module objects so the
same function serves every trial.
"""

import itertools

import torch
from torch import nn

torch.manual_seed(0)

x = torch.randn(128, 12)
y = (x[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(128, 1)).clamp(-2, 2)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, inp, act):
        return self.fc2(act(self.fc1(inp)))


@torch.compile(backend="aot_eager")
def train_step(net, inp, target, act, criterion):
    pred = net(inp, act)
    return criterion(pred, target)


activations = [nn.ReLU(), nn.GELU(), nn.SiLU()]
criteria = [nn.MSELoss(), nn.SmoothL1Loss(beta=0.5)]

results = {}
for act, criterion in itertools.product(activations, criteria):
    torch.manual_seed(1)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for step in range(5):
        loss = train_step(net, x, y, act, criterion)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        mse = nn.functional.mse_loss(net(x, act), y).item()
    results[(type(act).__name__, type(criterion).__name__)] = mse
    print(f"{type(act).__name__:5s} {type(criterion).__name__:12s} final mse {mse:.4f}")

best = min(results, key=results.get)
print("best", best)
