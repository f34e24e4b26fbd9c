"""Image-feature classifier trained in bf16 autocast, with SAM every few steps.

Sharpness-aware minimisation needs a second forward after nudging the
weights in place. Since the weights move inside the autocast region we turn
the autocast weight cache off for those steps so the second forward sees the
perturbed weights, and keep it on for the ordinary steps.
"""

from dataclasses import dataclass

import torch
from torch import nn

torch.manual_seed(0)


@dataclass
class Config:
    sam_every: int = 3
    rho: float = 0.05
    lr: float = 0.05
    steps: int = 7


cfg = Config()
model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 10))
fwd = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)


def loss_of(x, y):
    return nn.functional.cross_entropy(fwd(x).float(), y)


for step in range(cfg.steps):
    x = torch.randn(32, 64)
    y = torch.randint(0, 10, (32,))
    use_sam = step % cfg.sam_every == cfg.sam_every - 1
    with torch.autocast("cpu", dtype=torch.bfloat16, cache_enabled=not use_sam):
        loss = loss_of(x, y)
        loss.backward()
        if use_sam:
            params = [p for p in model.parameters() if p.grad is not None]
            norm = torch.norm(torch.stack([p.grad.norm() for p in params]))
            eps = []
            with torch.no_grad():
                for p in params:
                    e = cfg.rho * p.grad / (norm + 1e-12)
                    p.add_(e)
                    eps.append(e)
            opt.zero_grad()
            loss_of(x, y).backward()
            with torch.no_grad():
                for p, e in zip(params, eps):
                    p.sub_(e)
    opt.step()
    opt.zero_grad()
    print(f"step {step} sam {use_sam} loss {loss.item():.4f}")
