import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass

torch.manual_seed(0)


@dataclass
class BlockConfig:
    name: str
    hidden: int = 32
    act: str = "leaky_relu"
    slope: float = 0.01


class ResidualMLPBlock(nn.Module):
    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.cfg = cfg
        self.fc1 = nn.Linear(cfg.hidden, cfg.hidden * 2)
        self.fc2 = nn.Linear(cfg.hidden * 2, cfg.hidden)
        self.norm = nn.LayerNorm(cfg.hidden)

    def forward(self, x):
        h = self.fc1(self.norm(x))
        if self.cfg.act == "elu":
            h = F.elu(h, alpha=self.cfg.slope)
        else:
            h = F.leaky_relu(h, negative_slope=self.cfg.slope)
        return x + self.fc2(h)


class Regressor(nn.Module):
    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.inp = nn.Linear(8, cfg.hidden)
        self.blocks = nn.ModuleList([ResidualMLPBlock(cfg) for _ in range(2)])
        self.out = nn.Linear(cfg.hidden, 1)

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h)


@torch.compile(backend="aot_eager")
def block_stack(model, x):
    return model(x)


configs = [
    BlockConfig("lrelu_001", slope=0.01),
    BlockConfig("lrelu_02", slope=0.2),
    BlockConfig("elu_1", act="elu", slope=1.0),
]

x_all = torch.randn(256, 8)
y_all = (x_all[:, :2].sum(dim=1, keepdim=True)).tanh()

for cfg in configs:
    model = Regressor(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, 256, 64):
            xb, yb = x_all[i:i + 64], y_all[i:i + 64]
            loss = F.mse_loss(block_stack(model, xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(cfg.name, "final loss", round(loss.item(), 4))
