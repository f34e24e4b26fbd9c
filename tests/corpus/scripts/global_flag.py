import torch
from torch import nn

torch.manual_seed(0)

USE_RESIDUAL = False


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        if USE_RESIDUAL:
            h = h + x
        return h


model = nn.Sequential(Block(), Block(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")

for step in range(5):
    if step == 2:
        USE_RESIDUAL = True  # switched on by the training recipe
    x = torch.randn(8, 32)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    print(f"step {step} residual {USE_RESIDUAL} loss {loss.item():.4f}")
