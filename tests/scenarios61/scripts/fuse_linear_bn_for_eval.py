import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.fusion import fuse_linear_bn_eval

torch.manual_seed(0)


class TabularMLP(nn.Module):
    def __init__(self, d_in=20, hidden=64, num_classes=3):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(d_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
        )
        self.out = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.out(self.layers(x))


def fuse_pairs(seq):
    mods = list(seq)
    fused = []
    i = 0
    while i < len(mods):
        if i + 1 < len(mods) and isinstance(mods[i], nn.Linear) and isinstance(mods[i + 1], nn.BatchNorm1d):
            fused.append(fuse_linear_bn_eval(mods[i], mods[i + 1]))
            i += 2
        else:
            fused.append(mods[i])
            i += 1
    return nn.Sequential(*fused)


model = TabularMLP()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

x_val = torch.randn(64, 20)
y_val = torch.randint(0, 3, (64,))

for epoch in range(2):
    model.train()
    for _ in range(4):
        x = torch.randn(32, 20)
        y = torch.randint(0, 3, (32,))
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (compiled(x_val).argmax(1) == y_val).float().mean()
    print(f"epoch {epoch} loss={loss.item():.4f} val_acc={acc.item():.3f}")

# export: fold batch norm into the linear layers for the deployed model
reference = copy.deepcopy(model)
model.layers = fuse_pairs(model.layers)
with torch.no_grad():
    for _ in range(3):
        xb = torch.randn(64, 20)
        diff = (compiled(xb) - reference(xb)).abs().max()
        print(f"fused eval max diff={diff.item():.2e}")
