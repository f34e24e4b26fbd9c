"""shape, before: a compiled function called with batches of 8, 5, 3 and 6
rows (automatic dynamic shapes, the default): the second size recompiles
and makes dim 0 dynamic."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.tanh(x @ x.T).sum(dim=1)


compiled = torch.compile(f, backend="aot_eager")
for n in (8, 5, 3, 6):
    x = torch.randn(n, 4)
    y = compiled(x)
