import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class Regulariser:
    name: str
    ord: float
    strength: float


REGULARISERS = [
    Regulariser("ridge", 2, 1e-3),
    Regulariser("lasso", 1, 1e-4),
    Regulariser("maxnorm", math.inf, 1e-2),
]


def weight_penalty(weights, ord, strength):
    total = weights[0].new_zeros(())
    for w in weights:
        total = total + torch.linalg.vector_norm(w, ord=ord)
    return strength * total


penalty = torch.compile(weight_penalty, backend="aot_eager")

X = torch.randn(256, 10)
true_w = torch.zeros(10)
true_w[:3] = torch.tensor([1.5, -2.0, 0.5])
y = X @ true_w + 0.1 * torch.randn(256)

for reg in REGULARISERS:
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    weights = [m.weight for m in model if isinstance(m, nn.Linear)]
    for epoch in range(3):
        for i in range(0, 256, 64):
            xb, yb = X[i:i + 64], y[i:i + 64]
            pred = model(xb).squeeze(-1)
            loss = F.mse_loss(pred, yb) + penalty(weights, reg.ord, reg.strength)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        val = F.mse_loss(model(X).squeeze(-1), y).item()
    print(f"{reg.name}: train mse {val:.4f}")
