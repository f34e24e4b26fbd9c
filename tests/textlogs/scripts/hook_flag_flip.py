import torch
from torch import nn

torch.manual_seed(0)


class Metrics:
    def __init__(self):
        self.on = False
        self.norms = []


metrics = Metrics()
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def log_activation_norm(module, inputs, output):
    if metrics.on:
        metrics.norms.append(output.detach().norm())


model[1].register_forward_hook(log_activation_norm)
compiled = torch.compile(model, backend="aot_eager")

for step in range(6):
    metrics.on = step >= 3  # start logging after warm-up
    x = torch.randn(8, 16)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f} logged {len(metrics.norms)}")
