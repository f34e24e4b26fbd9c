"""default_device: torch.set_default_device changes between calls.

0/0 compiles with no default device; after torch.set_default_device("meta")
the DEFAULT_DEVICE guard (`utils_device.CURRENT_DEVICE == None`) fails (0/1).
"""
import torch

torch.manual_seed(0)


def f(x):
    return x + torch.ones(3)


compiled = torch.compile(f, backend="aot_eager")
compiled(torch.randn(3))              # 0/0: no default device
torch.set_default_device("meta")
compiled(torch.randn(3))              # 0/1: DEFAULT_DEVICE changed
torch.set_default_device(None)
