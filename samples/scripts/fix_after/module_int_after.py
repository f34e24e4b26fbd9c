"""module_int, after: guardscope's fix for the before log applied:
torch._dynamo.config.allow_unspec_int_on_nn_module = True.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch._dynamo.config.allow_unspec_int_on_nn_module = True


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
