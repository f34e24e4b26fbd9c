"""RealNVP-style normalizing flow on 2-D toy data (two moons-ish points).

Affine coupling layers with alternating checkerboard masks; one compiled
function runs the flow forward (density) or backward (sampling) depending on
a Python bool argument.
"""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class AffineCoupling(nn.Module):
    def __init__(self, mask, hidden=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                                 nn.Tanh(), nn.Linear(hidden, 4))

    def forward(self, x, reverse):
        xm = x * self.mask
        s, t = self.net(xm).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        if reverse:
            return xm + (1 - self.mask) * ((x - t) * torch.exp(-s)), -s.sum(1)
        return xm + (1 - self.mask) * (x * torch.exp(s) + t), s.sum(1)


class RealNVP(nn.Module):
    def __init__(self, n_layers=6):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
                 for i in range(n_layers)]
        self.layers = nn.ModuleList(AffineCoupling(m) for m in masks)


def run_flow(flow, x, reverse=False):
    logdet = torch.zeros(x.shape[0])
    layers = reversed(flow.layers) if reverse else flow.layers
    for layer in layers:
        x, ld = layer(x, reverse)
        logdet = logdet + ld
    return x, logdet


flow_step = torch.compile(run_flow, backend="aot_eager")


def toy_batch(n):
    theta = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.stack([torch.cos(theta), torch.sin(theta)], 1)
    x = torch.where(upper[:, None], x, torch.stack([1 - x[:, 0], 0.5 - x[:, 1]], 1))
    return x + 0.05 * torch.randn(n, 2)


flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=3e-3)
for step in range(6):
    x = toy_batch(128)
    z, logdet = flow_step(flow, x)
    log_pz = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
    loss = -(log_pz + logdet).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} nll={loss.item():.3f}")

with torch.no_grad():
    samples, _ = flow_step(flow, torch.randn(128, 2), reverse=True)
print("sample mean", samples.mean(0).tolist())
