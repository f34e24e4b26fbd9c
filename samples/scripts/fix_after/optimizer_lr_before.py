"""optimizer_lr, before: a compiled AdamW step with a float lr that a StepLR
scheduler halves every 2 steps: the optimizer step recompiles for new lr
values."""
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


for step in range(8):
    loss = model(torch.randn(8, 16)).pow(2).mean()
    loss.backward()
    opt_step()
    opt.zero_grad()
    scheduler.step()
