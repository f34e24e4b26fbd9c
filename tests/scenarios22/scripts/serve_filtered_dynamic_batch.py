"""Ranking service: candidates are filtered, then the survivors are scored.

A cheap rule drops candidates below a relevance threshold; the compiled
scorer only sees what is left. The scorer was compiled with dynamic=True
since the number of survivors changes from request to request.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 96), nn.GELU(), nn.Linear(96, 1))
        self.norm = nn.LayerNorm(dim)

    def forward(self, feats):
        h = self.norm(feats)
        scores = self.mlp(h).squeeze(-1)
        # softmax over the candidates that survived the filter
        return torch.softmax(scores, dim=0)


scorer = Scorer().eval()
score = torch.compile(scorer, backend="aot_eager", dynamic=True)

THRESHOLD = 0.5


def handle(request_feats, prior):
    keep = prior > THRESHOLD
    survivors = request_feats[keep]
    with torch.no_grad():
        probs = score(survivors)
    return survivors.shape[0], probs


# simulated traffic: number of candidates and how many pass the filter vary
traffic = [
    (40, 0.8),
    (64, 0.7),
    (30, 0.9),
    (20, 0.03),  # almost everything filtered out
    (50, 0.0),   # nothing passes
    (60, 0.6),
]

for i, (n, pass_rate) in enumerate(traffic):
    feats = torch.randn(n, 48)
    prior = torch.where(torch.rand(n) < pass_rate, torch.ones(n), torch.zeros(n))
    if i == 3:
        prior = torch.zeros(n)
        prior[5] = 1.0
    kept, probs = handle(feats, prior)
    top = probs.max().item() if kept else float("nan")
    print(f"request {i}: {n} candidates, {kept} kept, top prob {top:.3f}")
