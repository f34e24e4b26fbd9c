"""Train a deep narrow MLP with annealed gradient noise.

Adding Gaussian noise to the gradients (std = eta / (1 + t) ** 0.55,
Neelakantan et al. 2015) helps very deep plain nets get going. The noise is
added in a compiled helper between backward() and the optimizer step.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

ETA = 0.3
GAMMA = 0.55


def make_net(depth=12, width=32):
    layers = [nn.Linear(20, width), nn.ReLU()]
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    layers.append(nn.Linear(width, 3))
    return nn.Sequential(*layers)


@torch.compile(backend="aot_eager")
def add_gradient_noise(grads, std):
    for g in grads:
        g.add_(torch.randn(g.shape) * std)


net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
params = [p for p in net.parameters() if p.requires_grad]

x_all = torch.randn(512, 20)
y_all = (x_all[:, :3].argmax(1))

step = 0
for epoch in range(3):
    perm = torch.randperm(512)
    for i in range(0, 512, 128):
        idx = perm[i:i + 128]
        loss = F.cross_entropy(net(x_all[idx]), y_all[idx])
        opt.zero_grad()
        loss.backward()
        # noise schedule is per epoch to keep it cheap
        std = ETA / (1 + epoch) ** GAMMA
        add_gradient_noise([p.grad for p in params], std)
        opt.step()
        step += 1
    print(f"epoch {epoch} loss {loss.item():.4f} noise std {std:.4f}")
