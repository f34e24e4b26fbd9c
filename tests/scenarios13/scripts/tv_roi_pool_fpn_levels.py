"""Second stage of a small two-stage detector on an FPN.

Each proposal is assigned to a pyramid level by its size; the box head pools
the proposals of each level from that level's feature map with
torchvision's roi_pool, then classifies them. Training step over a few
synthetic images.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn
from torchvision.ops import roi_pool

torch.manual_seed(0)

STRIDES = [8, 16, 32]
IMG = 256


class BoxHead(nn.Module):
    def __init__(self, channels=32, pooled=5, n_classes=4):
        super().__init__()
        self.pooled = pooled
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(channels * pooled * pooled, 128), nn.ReLU())
        self.cls = nn.Linear(128, n_classes)

    def forward(self, feat, rois, scale):
        x = roi_pool(feat, rois, output_size=self.pooled, spatial_scale=scale)
        return self.cls(self.fc(x))


backbone = nn.ModuleList([nn.Conv2d(3, 32, kernel_size=s, stride=s) for s in STRIDES])
head = BoxHead()
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.01)
pool_and_classify = torch.compile(head, backend="aot_eager")


def make_proposals(n=48):
    xy = torch.rand(n, 2) * (IMG - 64)
    wh = torch.exp(torch.empty(n, 2).uniform_(math.log(12), math.log(160)))
    boxes = torch.cat([xy, (xy + wh).clamp(max=IMG - 1)], dim=1)
    return torch.cat([torch.zeros(n, 1), boxes], dim=1)  # batch index 0


def level_of(rois):
    # canonical FPN assignment: bigger boxes go to coarser maps
    side = ((rois[:, 3] - rois[:, 1]) * (rois[:, 4] - rois[:, 2])).sqrt()
    return (torch.log2(side / 32 + 1e-6).floor() + 1).clamp(0, len(STRIDES) - 1).long()


for step in range(4):
    image = torch.randn(1, 3, IMG, IMG)
    rois = make_proposals()
    labels = torch.randint(0, 4, (rois.shape[0],))
    levels = level_of(rois)
    loss = 0.0
    for lvl, stride in enumerate(STRIDES):
        sel = levels == lvl
        if not sel.any():
            continue
        feat = backbone[lvl](image)
        logits = pool_and_classify(feat, rois[sel], 1.0 / stride)
        loss = loss + F.cross_entropy(logits, labels[sel], reduction="sum")
    loss = loss / rois.shape[0]
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} per-level counts {torch.bincount(levels, minlength=3).tolist()}")
