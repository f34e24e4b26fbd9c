import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.8)


def optimizer_step():
    opt.step()
    opt.zero_grad()


compiled_step = torch.compile(optimizer_step, backend="aot_eager")

for step in range(7):
    x = torch.randn(16, 32)
    loss = model(x).pow(2).mean()
    loss.backward()
    compiled_step()
    scheduler.step()
    print(f"step {step} lr {scheduler.get_last_lr()[0]:.4f} loss {loss.item():.4f}")
