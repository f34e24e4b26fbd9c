import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass

torch.manual_seed(0)


@dataclass
class HeadConfig:
    name: str
    full: bool
    eps: float


class HeteroscedasticRegressor(nn.Module):
    def __init__(self, in_dim=12, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, 1)
        self.logvar = nn.Linear(hidden, 1)
        self.cfg = HeadConfig("default", False, 1e-6)

    def forward(self, x, y):
        h = self.body(x)
        mu = self.mean(h)
        var = F.softplus(self.logvar(h))
        return F.gaussian_nll_loss(mu, y, var, full=self.cfg.full, eps=self.cfg.eps)


CONFIGS = [
    HeadConfig("house_prices", False, 1e-6),
    HeadConfig("sensor_drift", True, 1e-6),
    HeadConfig("energy_load", True, 1e-3),
]

x = torch.randn(64, 12)
y = x[:, :3].sum(dim=1, keepdim=True) + 0.1 * torch.randn(64, 1)

model = HeteroscedasticRegressor()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for cfg in CONFIGS:
    model.cfg = cfg
    for step in range(4):
        loss = compiled(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{cfg.name}: nll {loss.item():.4f}")
