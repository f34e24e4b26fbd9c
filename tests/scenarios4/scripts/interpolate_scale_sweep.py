"""Evaluating an arbitrary-scale super-resolution model at many scales.

The model upsamples a low-resolution image with `F.interpolate` by a float
`scale_factor` given at call time, then refines it with a few convolutions.
The user reports PSNR at scales from x1.5 to x4 in steps of 0.25.
"""

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class ArbitraryScaleSR(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, lr, scale):
        up = F.interpolate(lr, scale_factor=scale, mode="bilinear", align_corners=False)
        return up + self.refine(up)


model = ArbitraryScaleSR().eval()
compiled = torch.compile(model, backend="aot_eager")
hr = torch.rand(1, 3, 48, 48)
lr = F.interpolate(hr, size=(12, 12), mode="area")
for i in range(11):
    scale = 1.5 + 0.25 * i
    with torch.no_grad():
        sr = compiled(lr, scale)
    ref = F.interpolate(hr, size=sr.shape[-2:], mode="bilinear", align_corners=False)
    psnr = -10 * torch.log10(F.mse_loss(sr, ref))
    print(f"x{scale:.2f} -> {tuple(sr.shape[-2:])} PSNR {psnr.item():.2f}")
