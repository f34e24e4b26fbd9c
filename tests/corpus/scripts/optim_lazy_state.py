import torch
from torch import nn

torch.manual_seed(0)

model = nn.Linear(32, 8)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


for step in range(4):
    x = torch.randn(16, 32)
    loss = model(x).pow(2).mean()
    loss.backward()
    opt_step()  # the first call creates exp_avg / exp_avg_sq / step in opt.state
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f} state entries {len(opt.state)}")
