"""A dense detector's classification loss with an annealed focusing term.

The user trains a tiny anchor classifier with torchvision's
`sigmoid_focal_loss`. Following a paper they read, the focusing parameter
gamma starts at 0 (plain BCE) and is raised to 1 and then 2 every four
steps; the loss is computed in a compiled function that takes gamma as an
argument.
"""

import torch
from torch import nn
from torchvision.ops import sigmoid_focal_loss

torch.manual_seed(0)

head = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 5, 1))
opt = torch.optim.SGD(head.parameters(), lr=0.01)


@torch.compile(backend="aot_eager")
def anchor_loss(features, targets, gamma):
    logits = head(features).flatten(1)
    return sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=gamma, reduction="mean")


features = torch.randn(4, 8, 12, 12)
targets = (torch.rand(4, 5 * 12 * 12) > 0.95).float()
for step in range(12):
    gamma = [0.0, 1.0, 2.0][min(step // 4, 2)]
    loss = anchor_loss(features, targets, gamma)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step:2d} gamma {gamma:.2f} loss {loss.item():.5f}")
