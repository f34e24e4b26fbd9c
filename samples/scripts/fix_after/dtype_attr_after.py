"""dtype_attr, after: guardscope's fix for the before log applied: one dtype
for the compiled call, the cast outside it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.out_dtype = torch.float32

    def forward(self, x):
        return torch.relu(self.lin(x))


model = Model()
compiled = torch.compile(model, backend="aot_eager")
for step in range(4):
    model.out_dtype = torch.float64 if step >= 2 else torch.float32
    y = compiled(torch.randn(4, 8)).to(model.out_dtype)
