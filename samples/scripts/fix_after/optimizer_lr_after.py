"""optimizer_lr, after: guardscope's fix for the before log applied: the
optimizer given its lr as a tensor, torch.optim.AdamW(params, lr=torch.tensor(1e-3)).
"""
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=torch.tensor(1e-3))
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
