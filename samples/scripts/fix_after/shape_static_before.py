"""shape_static, before: dynamic=False, batches of 8, 5 and 3 rows: each
new size compiles again."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.tanh(x @ x.T).sum(dim=1)


compiled = torch.compile(f, backend="aot_eager", dynamic=False)
for n in (8, 5, 3):
    x = torch.randn(n, 4)
    y = compiled(x)
