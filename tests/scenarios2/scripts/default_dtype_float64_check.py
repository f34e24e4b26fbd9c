import torch
from torch import nn

torch.manual_seed(0)


class PositionalMLP(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, t):
        freqs = torch.arange(self.dim // 2) + 1.0  # default dtype
        angles = t[:, None] * freqs[None, :]
        feats = torch.cat([angles.sin(), angles.cos()], dim=-1).to(self.net[0].weight.dtype)
        return self.net(feats).squeeze(-1)


model = PositionalMLP()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(4):
    t = torch.rand(32)
    loss = (compiled(t) - torch.sin(3 * t)).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.5f}")

# numerical check of the fit on a fine grid, done in double precision
torch.set_default_dtype(torch.float64)
with torch.no_grad():
    grid = torch.linspace(0, 1, 32)
    err = (compiled(grid) - torch.sin(3 * grid)).abs().max()
torch.set_default_dtype(torch.float32)
print(f"max error on grid {err.item():.5f}")
