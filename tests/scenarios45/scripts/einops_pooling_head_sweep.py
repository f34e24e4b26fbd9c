from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import reduce

torch.manual_seed(0)


@dataclass(frozen=True)
class PoolConfig:
    name: str
    reduction: str


CONFIGS = [PoolConfig("gap", "mean"), PoolConfig("gmp", "max")]


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)

    def forward(self, x):
        return F.gelu(self.conv2(F.gelu(self.conv1(x))))


backbone = Backbone()
head = nn.Linear(32, 5)
params = list(backbone.parameters()) + list(head.parameters())


def train_step(x, y, reduction):
    feats = backbone(x)
    pooled = reduce(feats, "b c h w -> b c", reduction)
    logits = head(pooled)
    return F.cross_entropy(logits, y)


train_step_c = torch.compile(train_step, backend="aot_eager")

for cfg in CONFIGS:
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    for epoch in range(2):
        total = 0.0
        for _ in range(3):
            x = torch.randn(8, 3, 16, 16)
            y = torch.randint(0, 5, (8,))
            loss = train_step_c(x, y, cfg.reduction)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(cfg.name, epoch, f"{total / 3:.4f}")
