"""module_attr, before: a float attribute of the module (a temperature the
loop anneals each epoch) is read in forward: each new value recompiles."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.temperature = 1.0

    def forward(self, x):
        return torch.softmax(self.lin(x) / self.temperature, dim=-1)


model = Model()
compiled = torch.compile(model, backend="aot_eager")
for epoch in range(4):
    model.temperature = 1.0 / (epoch + 1)
    y = compiled(torch.randn(4, 8))
