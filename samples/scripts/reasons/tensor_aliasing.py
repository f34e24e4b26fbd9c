"""tensor_aliasing: the same tensor passed as two arguments after a compile for distinct ones.

`step(a, b, c)` adds `b` into `a` in place; compiled for three distinct
tensors (0/0), it is then called with one tensor as both `a` and `c`. Dynamo
guards that its tensor arguments do not alias, so the call recompiles (0/1):
torch 2.15 words the failure `Duplicate tensors found: ["a", "c"]`. The
distinct call that follows reuses 0/0.
"""
import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def step(a, b, c):
    a.add_(b)
    return c + 1


x, y, z = torch.randn(3), torch.randn(3), torch.randn(3)
step(x, y, z)            # 0/0: three distinct tensors
step(x, y, x)            # 0/1: a and c are one tensor
step(z, y, x)            # distinct again: 0/0
