import torch
from torch import nn

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        out = self.net(x)
        if hasattr(self, "output_scale"):
            out = out * self.output_scale
        return out


model = Regressor()
compiled = torch.compile(model, backend="aot_eager")

for step in range(5):
    if step == 2:
        model.output_scale = 2.0  # calibrated after warm-up
    x = torch.randn(8, 16)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f}")
