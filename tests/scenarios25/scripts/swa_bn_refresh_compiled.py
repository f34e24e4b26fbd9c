"""Stochastic weight averaging for a small CNN on synthetic images.

The network is compiled before training; the averaged copy is built from it,
its BatchNorm statistics are refreshed with update_bn, then it is evaluated.
"""

import torch
from torch import nn
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn

torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
    nn.Conv2d(16, 32, 3, padding=1, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
)
model = torch.compile(net, backend="aot_eager")

images = torch.randn(128, 3, 16, 16)
labels = torch.randint(0, 10, (128,))
loader = [(images[i : i + 32], labels[i : i + 32]) for i in range(0, 128, 32)]

opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
swa_model = AveragedModel(model)
swa_sched = SWALR(opt, swa_lr=0.01, anneal_epochs=2)
swa_start = 2

for epoch in range(5):
    model.train()
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_sched.step()
    print(f"epoch {epoch} loss {loss.item():.3f} lr {opt.param_groups[0]['lr']:.4f}")

# BatchNorm running stats of the averaged weights
update_bn(((x,) for x, _ in loader), swa_model)

swa_model.eval()
with torch.no_grad():
    acc = (swa_model(images).argmax(1) == labels).float().mean().item()
print(f"swa acc {acc:.3f} averaged {swa_model.n_averaged.item()}")
