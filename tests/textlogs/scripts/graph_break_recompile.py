# A print inside forward breaks the graph; a changing float argument
# recompiles once and then becomes dynamic. Run with
# TORCH_LOGS=recompiles,graph_breaks.
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 4)

    def forward(self, x, temperature):
        h = self.lin(x)
        print("forward", tuple(h.shape))
        return (h / temperature).softmax(-1)


compiled = torch.compile(Net(), backend="eager")
for step in range(4):
    out = compiled(torch.randn(8, 16), 1.0 + step)
    print(f"step {step} sum {out.sum().item():.4f}")
