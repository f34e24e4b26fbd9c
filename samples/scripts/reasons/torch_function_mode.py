"""torch_function_mode: a TorchFunctionMode is entered around a compiled call.

0/0 compiles with no mode on the stack; the call inside the mode fails the
torch-function mode stack guard (0/1).
"""
import torch
from torch.overrides import TorchFunctionMode

torch.manual_seed(0)


class Passthrough(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def f(x):
    return torch.sin(x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled(x)                      # 0/0: no mode
with Passthrough():
    compiled(x)                  # 0/1: torch-function mode stack changed
