import torch
from torch import nn

torch.manual_seed(0)


class Monitor:
    def __init__(self):
        self.enabled = False
        self.values = []


mon = Monitor()
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))


def record(module, inputs, output):
    if mon.enabled:
        mon.values.append(output.norm())


model[1].register_forward_hook(record)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(12):
    if step == 2:
        mon.enabled = True  # start monitoring after warm-up
    loss = compiled(torch.randn(8, 16)).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f} recorded {len(mon.values)}")
