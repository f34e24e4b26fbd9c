"""functorch_vmap: a compiled function called plainly, then under torch.func.vmap.

0/0 compiles outside any functorch transform; called under vmap the functorch
layer stack differs (`compare_functorch_state`) and it compiles again (0/1).
"""
import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def f(x):
    return torch.sin(x) * 2


x = torch.randn(3)
f(x)                                      # 0/0: no transform
torch.func.vmap(f)(torch.randn(5, 3))     # 0/1: functorch stack changed
