import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CONFIG = {
    "dim": 24,
    "blocks": [
        {"self_normalizing": True},
        {"self_normalizing": False},
        {"self_normalizing": True},
        {"self_normalizing": False},
    ],
}


@torch.compile(backend="aot_eager")
def block_forward(x, weight, bias, self_normalizing):
    h = F.linear(x, weight, bias)
    if self_normalizing:
        h = F.selu(h)
    else:
        h = F.hardsigmoid(h) * h
    return x + h


class Stack(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["dim"]
        self.flags = [b["self_normalizing"] for b in cfg["blocks"]]
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in self.flags])
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        for layer, flag in zip(self.layers, self.flags):
            x = block_forward(x, layer.weight, layer.bias, flag)
        return self.head(x).squeeze(-1)


model = Stack(CONFIG)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(6):
    x = torch.randn(16, CONFIG["dim"])
    target = x.sum(-1).tanh()
    loss = F.mse_loss(model(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: {loss.item():.4f}")
