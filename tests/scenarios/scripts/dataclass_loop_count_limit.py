from dataclasses import dataclass

import torch
from torch import nn

torch._dynamo.config.recompile_limit = 4

torch.manual_seed(0)


@dataclass
class RefineConfig:
    refine_iters: int
    step_size: float = 0.1


class IterativeRefiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.update = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 16))

    def forward(self, x, cfg):
        y = x
        for _ in range(cfg.refine_iters):
            y = y + cfg.step_size * self.update(y)
        return y


model = IterativeRefiner()
compiled = torch.compile(model, backend="aot_eager")

# curriculum: one more refinement iteration every step
for step in range(7):
    cfg = RefineConfig(refine_iters=1 + step)
    x = torch.randn(8, 16)
    loss = (compiled(x, cfg) - x.flip(-1)).pow(2).mean()
    loss.backward()
    print(f"step {step} iters {cfg.refine_iters} loss {loss.item():.4f}")
