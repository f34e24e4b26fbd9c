import torch
from torch import nn
from torch.nn.utils import parametrize

torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, w):
        return w.triu() + w.triu(1).transpose(-1, -2)


model = nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh())
parametrize.register_parametrization(model[0], "weight", Symmetric())
parametrize.register_parametrization(model[2], "weight", Symmetric())
compiled = torch.compile(model, backend="aot_eager")

x = torch.randn(4, 16)
with torch.no_grad():
    print("plain", compiled(x).sum().item())
    # unrolled evaluation: cache the parametrized weights across steps
    with parametrize.cached():
        h = x
        for _ in range(3):
            h = compiled(h)
        print("cached", h.sum().item())
    print("plain again", compiled(x).sum().item())
