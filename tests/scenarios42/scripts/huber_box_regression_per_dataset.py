"""Train a tiny box regressor on two datasets with per-dataset Huber loss settings."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class DatasetCfg:
    name: str
    delta: float
    box_scale: float
    n_boxes: int


DATASETS = [
    DatasetCfg("street", 1.0, 1.0, 16),
    DatasetCfg("aerial", 0.25, 0.5, 16),
]


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, feats):
        raw = self.net(feats)
        xy = raw[:, :2].sigmoid()
        wh = raw[:, 2:].sigmoid() * 0.5
        return torch.cat([xy, xy + wh], dim=1)


model = BoxHead()
opt = torch.optim.SGD(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def train_step(feats, target, delta):
    pred = model(feats)
    return F.huber_loss(pred, target, delta=delta)


def make_batch(n, scale):
    feats = torch.randn(n, 32)
    xy = torch.rand(n, 2) * 0.8
    wh = torch.rand(n, 2) * 0.2 * scale + 0.02
    return feats, torch.cat([xy, xy + wh], dim=1)


for epoch in range(2):
    for cfg in DATASETS:
        for _ in range(3):
            feats, target = make_batch(cfg.n_boxes, cfg.box_scale)
            loss = train_step(feats, target, cfg.delta)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, cfg.name, round(loss.item(), 4))
