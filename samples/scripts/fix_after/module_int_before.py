"""module_int, before: an int attribute of the module (how many top
entries to keep, raised each epoch) is read in forward: each new value
recompiles."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.k = 2

    def forward(self, x):
        return self.lin(x)[:, : self.k].sum(dim=1)


model = Model()
compiled = torch.compile(model, backend="aot_eager")
for epoch in range(4):
    model.k = 2 + epoch
    y = compiled(torch.randn(4, 8))
