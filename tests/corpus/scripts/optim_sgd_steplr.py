import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


for step in range(10):
    x = torch.randn(16, 32)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt_step()
    opt.zero_grad()
    scheduler.step()
    print(f"step {step} lr {scheduler.get_last_lr()[0]:.4f} loss {loss.item():.4f}")
