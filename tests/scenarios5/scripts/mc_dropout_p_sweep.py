"""Monte-Carlo dropout uncertainty at several dropout rates.

A user estimates predictive uncertainty of a regressor by keeping dropout on
at test time. To choose the rate they sweep `p` and pass it straight into
`F.dropout` inside the compiled prediction function.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

body = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
head = nn.Linear(64, 1)


@torch.compile(backend="aot_eager")
def mc_predict(x, p):
    h = body(x)
    h = F.dropout(h, p=p, training=True)
    return head(h)


x = torch.randn(32, 8)
with torch.no_grad():
    for p in [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]:
        samples = torch.stack([mc_predict(x, p) for _ in range(4)])
        print(f"p={p:.2f} mean std {samples.std(0).mean().item():.4f}")
