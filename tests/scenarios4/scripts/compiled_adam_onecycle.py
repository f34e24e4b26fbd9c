"""A compiled optimizer step driven by a one-cycle schedule.

The user compiles `opt.step` for speed and, as the docs advise for compiled
optimizers, gives Adam its learning rate as a tensor. The schedule is
`OneCycleLR`, which also cycles Adam's momentum (beta1) every step.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01))
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=12)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


x, y = torch.randn(64, 16), torch.randn(64, 1)
for step in range(12):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt_step()
    sched.step()
    print(f"step {step:2d} beta1 {opt.param_groups[0]['betas'][0]:.3f} loss {loss.item():.4f}")
