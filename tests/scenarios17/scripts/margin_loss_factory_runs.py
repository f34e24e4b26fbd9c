"""Metric learning on random embeddings: a small margin sweep.

For each run we build the triplet loss with its margin from the sweep and
hand it to the (compiled) training step, which is shared by all runs.
"""

import torch
from torch import nn

torch.manual_seed(0)


def make_triplet_loss(margin):
    def loss_fn(a, p, n):
        d_pos = (a - p).pow(2).sum(-1)
        d_neg = (a - n).pow(2).sum(-1)
        return torch.relu(d_pos - d_neg + margin).mean()
    return loss_fn


encoder = nn.Sequential(nn.Linear(24, 64), nn.GELU(), nn.Linear(64, 16))


@torch.compile(backend="aot_eager")
def train_step(anchor, pos, neg, loss_fn):
    za, zp, zn = encoder(anchor), encoder(pos), encoder(neg)
    za = nn.functional.normalize(za, dim=-1)
    zp = nn.functional.normalize(zp, dim=-1)
    zn = nn.functional.normalize(zn, dim=-1)
    return loss_fn(za, zp, zn)


anchor = torch.randn(32, 24)
pos = anchor + 0.1 * torch.randn(32, 24)
neg = torch.randn(32, 24)

for margin in [0.2, 0.5, 1.0]:
    loss_fn = make_triplet_loss(margin)
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    for step in range(4):
        loss = train_step(anchor, pos, neg, loss_fn)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"margin {margin} final loss {loss.item():.4f}")
