"""Click-through regression trained on logged data from two sources.

The logged-policy source comes with importance weights (and a mask of
items that were actually shown); the randomised-exploration source has
neither, so its batches leave those fields as None. One compiled loss
function handles both kinds of batch.
"""

from dataclasses import dataclass
from typing import Optional

import torch
from torch import nn

torch.manual_seed(0)


@dataclass
class Batch:
    features: torch.Tensor
    clicks: torch.Tensor
    weights: Optional[torch.Tensor] = None
    shown: Optional[torch.Tensor] = None


class CtrModel(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 48), nn.SiLU(), nn.Linear(48, 1))

    def forward(self, feats):
        return self.net(feats).squeeze(-1)


model = CtrModel()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)


@torch.compile(backend="aot_eager")
def batch_loss(batch: Batch):
    logits = model(batch.features)
    per_item = nn.functional.binary_cross_entropy_with_logits(logits, batch.clicks, reduction="none")
    if batch.shown is not None:
        per_item = per_item * batch.shown
    if batch.weights is not None:
        per_item = per_item * batch.weights
    return per_item.mean()


def logged_batch():
    f = torch.randn(64, 24)
    return Batch(f, torch.randint(0, 2, (64,)).float(), torch.rand(64) * 2, (torch.rand(64) > 0.2).float())


def exploration_batch():
    f = torch.randn(64, 24)
    return Batch(f, torch.randint(0, 2, (64,)).float())


for step in range(10):
    batch = exploration_batch() if step % 3 == 2 else logged_batch()
    loss = batch_loss(batch)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} weighted={batch.weights is not None} loss {loss.item():.4f}")
