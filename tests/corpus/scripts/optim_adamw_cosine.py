import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


for step in range(12):
    x = torch.randn(16, 32)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt_step()
    opt.zero_grad()
    scheduler.step()
    print(f"step {step} lr {scheduler.get_last_lr()[0]:.6f} loss {loss.item():.4f}")
