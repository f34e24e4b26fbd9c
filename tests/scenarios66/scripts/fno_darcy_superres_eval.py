"""Tiny 2D Fourier neural operator trained on a synthetic Darcy-like problem
at 16x16 and evaluated zero-shot on finer grids."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SpectralConv2d(nn.Module):
    def __init__(self, width, modes):
        super().__init__()
        self.modes = modes
        scale = 1.0 / (width * width)
        self.weight = nn.Parameter(scale * torch.randn(width, width, modes, modes, dtype=torch.cfloat))

    def forward(self, x):
        b, c, h, w = x.shape
        x_ft = torch.fft.rfft2(x, norm="ortho")
        out_ft = torch.zeros(b, c, h, w // 2 + 1, dtype=torch.cfloat)
        m = self.modes
        out_ft[:, :, :m, :m] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m, :m], self.weight)
        return torch.fft.irfft2(out_ft, s=(h, w), norm="ortho")


class FNO2d(nn.Module):
    def __init__(self, width=8, modes=4, layers=2):
        super().__init__()
        self.lift = nn.Conv2d(3, width, 1)
        self.spectral = nn.ModuleList(SpectralConv2d(width, modes) for _ in range(layers))
        self.local = nn.ModuleList(nn.Conv2d(width, width, 1) for _ in range(layers))
        self.proj = nn.Sequential(nn.Conv2d(width, 16, 1), nn.GELU(), nn.Conv2d(16, 1, 1))

    def forward(self, a):
        b, _, h, w = a.shape
        ys = torch.linspace(0, 1, h).view(1, 1, h, 1).expand(b, 1, h, w)
        xs = torch.linspace(0, 1, w).view(1, 1, 1, w).expand(b, 1, h, w)
        x = self.lift(torch.cat([a, ys, xs], dim=1))
        for spec, loc in zip(self.spectral, self.local):
            x = F.gelu(spec(x) + loc(x))
        return self.proj(x)


def make_batch(n, res):
    coeff = torch.randn(n, 1, 4, 4)
    a = F.interpolate(coeff, size=(res, res), mode="bilinear", align_corners=True).exp()
    u = F.avg_pool2d(1.0 / a, 3, stride=1, padding=1)
    return a, u


model = FNO2d()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
fno = torch.compile(model, backend="aot_eager")

for step in range(12):
    a, u = make_batch(8, 16)
    loss = F.mse_loss(fno(a), u)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    for res in (16, 32, 64):
        a, u = make_batch(4, res)
        err = (fno(a) - u).norm() / u.norm()
        print(f"eval res {res}: rel err {err.item():.3f}")
