"""Robustness evaluation of a small CNN with PGD attacks.

The evaluation loop runs under no_grad; the attack re-enables autograd to
get input gradients. Each epsilon in the sweep is evaluated on the same
held-out batches, clean accuracy first.
"""

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(16, 10),
)
net.eval()
model = torch.compile(net, backend="aot_eager")

batches = [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(2)]


def pgd(x, y, eps, alpha, steps):
    x_adv = x.clone()
    with torch.enable_grad():
        for _ in range(steps):
            x_adv.requires_grad_(True)
            loss = F.cross_entropy(model(x_adv), y)
            (grad,) = torch.autograd.grad(loss, x_adv)
            x_adv = x_adv.detach() + alpha * grad.sign()
            x_adv = torch.min(torch.max(x_adv, x - eps), x + eps).clamp(0, 1)
    return x_adv.detach()


@torch.no_grad()
def accuracy(eps):
    correct = total = 0
    for x, y in batches:
        if eps > 0:
            x = pgd(x, y, eps, alpha=eps / 4, steps=3)
        correct += (model(x).argmax(-1) == y).sum().item()
        total += y.numel()
    return correct / total


for eps in [0.0, 2 / 255, 4 / 255, 8 / 255]:
    print(f"eps={eps:.4f} acc={accuracy(eps):.3f}")
