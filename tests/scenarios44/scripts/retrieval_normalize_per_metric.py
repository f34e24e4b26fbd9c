import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, d_in=24, d_out=16):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(d_in, 32), nn.Tanh(), nn.Linear(32, d_out))

    def forward(self, x):
        return self.proj(x)


encoder = Encoder().eval()


@torch.compile(backend="aot_eager")
def retrieve(queries, docs, p, k):
    q = F.normalize(encoder(queries), p=p, dim=-1)
    d = F.normalize(encoder(docs), p=p, dim=-1)
    scores = q @ d.T
    return scores.topk(k, dim=-1).indices


# metric name -> norm used before the dot product
METRICS = {"cosine": 2.0, "l1_normed": 1.0, "max_normed": math.inf}

docs = torch.randn(64, 24)
relevant = torch.randint(0, 64, (40,))
queries = docs[relevant] + 0.3 * torch.randn(40, 24)

with torch.no_grad():
    for rnd in range(2):
        for metric, p in METRICS.items():
            hits = 0
            for i in range(0, 40, 10):
                top = retrieve(queries[i:i + 10], docs, p, 5)
                hits += (top == relevant[i:i + 10, None]).any(-1).sum().item()
            print(f"round {rnd} {metric}: recall@5={hits / 40:.3f}")
