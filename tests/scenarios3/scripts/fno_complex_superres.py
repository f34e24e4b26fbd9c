import torch
from torch import nn

torch.manual_seed(0)


class SpectralConv2d(nn.Module):
    def __init__(self, channels=8, modes=4):
        super().__init__()
        self.modes = modes
        scale = 1 / channels
        self.weight = nn.Parameter(scale * torch.randn(channels, channels, modes, modes, dtype=torch.cfloat))

    def forward(self, x):
        x_ft = torch.fft.rfft2(x)
        out_ft = torch.zeros_like(x_ft)
        m = self.modes
        out_ft[:, :, :m, :m] = torch.einsum("bixy,ioxy->boxy", x_ft[:, :, :m, :m], self.weight)
        return torch.fft.irfft2(out_ft, s=x.shape[-2:])


class FNO(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.lift = nn.Conv2d(1, channels, 1)
        self.spectral = SpectralConv2d(channels)
        self.skip = nn.Conv2d(channels, channels, 1)
        self.proj = nn.Conv2d(channels, 1, 1)

    def forward(self, x):
        h = self.lift(x)
        h = torch.nn.functional.gelu(self.spectral(h) + self.skip(h))
        return self.proj(h)


model = FNO()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    a, u = torch.randn(4, 1, 16, 16), torch.randn(4, 1, 16, 16)
    loss = nn.functional.mse_loss(compiled(a), u)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

# validation at the training grid, then zero-shot super-resolution on finer grids
with torch.no_grad():
    for res in [16, 32, 64]:
        pred = compiled(torch.randn(2, 1, res, res))
        print(f"res {res} -> {tuple(pred.shape)}")
