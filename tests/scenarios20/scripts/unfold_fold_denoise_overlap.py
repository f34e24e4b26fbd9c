"""Patch-based image denoiser with overlap-add reconstruction.

Training cuts each image into non-overlapping 8x8 patches (F.unfold), denoises
every patch with a small MLP and stitches them back (F.fold). For the final
evaluation we switch to overlapping patches (stride 4) and average the
overlaps, which gives cleaner seams.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

PATCH = 8


class PatchDenoiser(nn.Module):
    def __init__(self, channels=1, hidden=128):
        super().__init__()
        d = channels * PATCH * PATCH
        self.mlp = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, d))

    def forward(self, img, stride):
        n, c, h, w = img.shape
        cols = F.unfold(img, kernel_size=PATCH, stride=stride)  # (n, c*p*p, L)
        cols = cols + self.mlp(cols.transpose(1, 2)).transpose(1, 2)
        out = F.fold(cols, (h, w), kernel_size=PATCH, stride=stride)
        # how many patches covered each pixel
        ones = torch.ones_like(img)
        cover = F.fold(F.unfold(ones, kernel_size=PATCH, stride=stride), (h, w), kernel_size=PATCH, stride=stride)
        return out / cover


model = PatchDenoiser()
denoise = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

clean = torch.rand(64, 1, 32, 32)
for epoch in range(3):
    for i in range(0, 64, 16):
        target = clean[i : i + 16]
        noisy = target + 0.1 * torch.randn_like(target)
        loss = F.mse_loss(denoise(noisy, PATCH), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train mse {loss.item():.5f}")

model.eval()
with torch.no_grad():
    noisy = clean[:16] + 0.1 * torch.randn_like(clean[:16])
    for stride in (PATCH, PATCH // 2):
        mse = F.mse_loss(denoise(noisy, stride), clean[:16])
        print(f"eval stride {stride} mse {mse.item():.5f}")
