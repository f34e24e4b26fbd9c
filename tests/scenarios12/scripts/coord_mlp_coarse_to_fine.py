"""Fitting an image with a coordinate MLP, coarse to fine.

A Fourier-feature network maps (x, y) in [-1, 1] to RGB. Training starts
on a 16x16 grid of the target and doubles the resolution at each stage;
the compiled step builds its own coordinate grid for the stage's
resolution.
"""

import math

import torch
from torch import nn

torch.manual_seed(0)

B = torch.randn(2, 32) * 10.0


class FourierMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 3))

    def forward(self, coords):
        proj = 2 * math.pi * coords @ B
        return self.net(torch.cat([proj.sin(), proj.cos()], dim=-1))


model = FourierMLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
target_full = torch.rand(1, 3, 64, 64)


@torch.compile(backend="aot_eager")
def fit_step(target, res):
    ys = torch.linspace(-1.0, 1.0, res)
    xs = torch.linspace(-1.0, 1.0, res)
    grid = torch.stack(torch.meshgrid(ys, xs, indexing="ij"), dim=-1).reshape(-1, 2)
    pred = model(grid).reshape(res, res, 3).permute(2, 0, 1)
    return ((pred - target) ** 2).mean()


for res in [16, 32, 64]:
    target = nn.functional.adaptive_avg_pool2d(target_full, res)[0]
    for it in range(3):
        loss = fit_step(target, res)
        opt.zero_grad()
        loss.backward()
        opt.step()
    psnr = -10 * math.log10(loss.item())
    print(f"resolution {res}: loss {loss.item():.5f} psnr {psnr:.2f}")
