from dataclasses import dataclass

import torch
from torch import nn

torch._dynamo.config.recompile_limit = 4

torch.manual_seed(0)


@dataclass
class StepConfig:
    global_step: int
    warmup_steps: int = 100


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 16))

    def forward(self, x, cfg):
        # noise level ramps up over warm-up
        level = min(1.0, cfg.global_step / cfg.warmup_steps)
        return self.net(x + level * torch.randn_like(x))


model = Denoiser()
compiled = torch.compile(model, backend="aot_eager")

for step in range(7):
    cfg = StepConfig(global_step=step)
    x = torch.randn(8, 16)
    loss = (compiled(x, cfg) - x).pow(2).mean()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f}")
