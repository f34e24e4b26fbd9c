"""Two-tower retrieval model trained with in-batch negatives.

Warm-up phase: the softmax temperature is learned together with the towers
(CLIP-style log-parameterised scalar). After warm-up the team freezes it to
the value they tuned offline and keeps training the towers.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Tower(nn.Module):
    def __init__(self, dim_in, dim_out=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim_in, 64), nn.GELU(), nn.Linear(64, dim_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


query_tower, doc_tower = Tower(24), Tower(40)
log_temp = nn.Parameter(torch.tensor(0.07).log())
opt = torch.optim.AdamW(
    list(query_tower.parameters()) + list(doc_tower.parameters()) + [log_temp], lr=1e-3
)


@torch.compile(backend="aot_eager")
def contrastive_loss(q_feats, d_feats, temperature):
    q = query_tower(q_feats)
    d = doc_tower(d_feats)
    logits = q @ d.T / temperature
    target = torch.arange(q.shape[0])
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2


WARMUP_STEPS = 4
FROZEN_TEMPERATURE = 0.05

for step in range(10):
    queries = torch.randn(32, 24)
    docs = torch.randn(32, 40)
    if step < WARMUP_STEPS:
        temperature = log_temp.exp()
    else:
        temperature = FROZEN_TEMPERATURE
    loss = contrastive_loss(queries, docs, temperature)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} temperature {float(temperature):.4f}")
