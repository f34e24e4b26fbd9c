"""global_var: a module-level global `USE_FAST_PATH` flips."""
import torch

torch.manual_seed(0)

USE_FAST_PATH = False


def f(x):
    if USE_FAST_PATH:
        return x + 1
    return torch.cos(x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled(x)           # 0/0: USE_FAST_PATH is False
USE_FAST_PATH = True
compiled(x)           # 0/1: G['USE_FAST_PATH'] guard fails
