# A module attribute that changes every step: an int on an nn.Module is
# specialised, so each value compiles again until the recompile limit.
import torch
from torch import nn

torch.manual_seed(0)


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 4)
        self.step = 0

    def forward(self, x):
        return self.lin(x) * self.step


model = Scaled()
compiled = torch.compile(model, backend="eager")
for step in range(12):
    model.step = step
    loss = compiled(torch.randn(8, 16)).pow(2).mean()
    print(f"step {step} loss {loss.item():.4f}")
