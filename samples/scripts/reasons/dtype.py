"""dtype: input `x` changes dtype float32 -> float64."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.sin(x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4, 3)
compiled(x)           # 0/0
compiled(x.double())  # 0/1: tensor 'x' dtype mismatch
