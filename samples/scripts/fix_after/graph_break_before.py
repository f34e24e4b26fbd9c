"""graph_break, before: forward scales by a Python number read with .item():
a graph break in the user's own code."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        h = self.lin(x)
        scale = h.abs().max().item()
        return h / scale


compiled = torch.compile(Model(), backend="aot_eager")
for step in range(3):
    y = compiled(torch.randn(4, 8))
