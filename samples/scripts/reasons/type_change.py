"""type_change: argument `dims` is a list, then a tuple (TYPE_MATCH)."""
import torch

torch.manual_seed(0)


def f(x, dims):
    return x.sum(dim=dims[0]) + dims[1]


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4, 3)
compiled(x, [0, 1])     # 0/0: list
compiled(x, (0, 1))     # 0/1: type(dims) guard fails
