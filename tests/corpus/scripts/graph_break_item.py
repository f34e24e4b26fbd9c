import torch
from torch import nn

torch.manual_seed(0)


class EarlyExit(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 16) for _ in range(4)])
        self.gate = nn.Linear(16, 1)

    def forward(self, x):
        confidence = torch.sigmoid(self.gate(x)).mean()
        depth = int(confidence.item() * 4) + 1  # data-dependent: graph break
        for layer in self.layers[:depth]:
            x = torch.relu(layer(x))
        return x


model = EarlyExit()
compiled = torch.compile(model, backend="aot_eager")

for step in range(6):
    x = torch.randn(8, 16) * (step - 2.5)
    out = compiled(x)
    print(f"step {step} out {out.sum().item():.4f}")
