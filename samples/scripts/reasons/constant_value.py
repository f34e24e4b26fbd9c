"""constant_value: a str argument `mode` changes value."""
import torch

torch.manual_seed(0)


def f(x, mode):
    if mode == "sum":
        return x.sum()
    return x.mean()


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled(x, "sum")      # 0/0
compiled(x, "mean")     # 0/1: mode == 'sum' guard fails
