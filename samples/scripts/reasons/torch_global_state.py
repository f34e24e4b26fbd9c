"""torch_global_state: grad mode changes, then autocast is enabled.

0/0 compiles with grad enabled; under torch.no_grad() the grad_mode part of
GLOBAL_STATE fails (0/1); then autocast is enabled (still under no_grad) so
only the autocast part of GLOBAL_STATE differs from 0/1 (0/2).
"""
import torch

torch.manual_seed(0)


def f(x):
    return torch.mm(x, x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4, 4)
compiled(x)                      # 0/0: grad enabled
with torch.no_grad():
    compiled(x)                  # 0/1: GLOBAL_STATE changed: grad_mode
    with torch.autocast("cpu", dtype=torch.bfloat16):
        compiled(x)              # 0/2: GLOBAL_STATE changed: autocast(cpu)_enabled
