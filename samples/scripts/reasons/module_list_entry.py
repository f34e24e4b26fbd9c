"""module_list_entry: a float in a list the module keeps, read as a constant, refitted each epoch.

`Bins.forward` builds its boundaries from `self.edges`, a Python list of
floats; `refit()` assigns new quantiles every epoch, so each epoch's first
call recompiles on `self.edges[0] == ...` (0/1, 0/2).
"""
import torch

torch.manual_seed(0)


class Bins(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.edges = [-1.0, 0.0, 1.0]

    def refit(self, x):
        self.edges = torch.quantile(x, torch.tensor([0.25, 0.5, 0.75])).tolist()

    def forward(self, x):
        return torch.bucketize(x, torch.tensor(self.edges))


model = Bins()
compiled = torch.compile(model, backend="aot_eager")
for epoch in range(3):
    x = torch.randn(64)
    compiled(x)
    model.refit(x)
