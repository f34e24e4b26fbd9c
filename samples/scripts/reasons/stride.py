"""stride: input `x` becomes non-contiguous (transposed) with the same size."""
import torch

torch.manual_seed(0)


def f(x):
    return x.sum(dim=1) + 1


compiled = torch.compile(f, backend="aot_eager", dynamic=False)
base = torch.randn(4, 4)
compiled(base.contiguous())  # 0/0
compiled(base.t())           # 0/1: tensor 'x' stride mismatch
