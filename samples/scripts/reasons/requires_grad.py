"""requires_grad: input `x` changes requires_grad False -> True."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.sin(x) * 3


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4, 3)
compiled(x)                                   # 0/0
compiled(x.clone().requires_grad_(True))      # 0/1: requires_grad mismatch
