"""dtype_attr, before: the module keeps the dtype of its output in an
attribute, switched from float32 to float64 after two steps: forward reads
it as a constant, one graph per dtype."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.out_dtype = torch.float32

    def forward(self, x):
        return torch.relu(self.lin(x)).to(self.out_dtype)


model = Model()
compiled = torch.compile(model, backend="aot_eager")
for step in range(4):
    model.out_dtype = torch.float64 if step >= 2 else torch.float32
    y = compiled(torch.randn(4, 8))
