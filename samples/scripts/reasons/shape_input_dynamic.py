"""shape_input_dynamic: automatic dynamic shapes, then the 0/1 specialization.

First call compiles static; a new size recompiles with x.size(0) dynamic
(automatic dynamic); then a size-1 input fails the dynamic entry's
`2 <= x.size()[0]` guard (0/1 specialization) and recompiles again.
"""
import torch

torch.manual_seed(0)


def f(x):
    return torch.relu(x) * 2


compiled = torch.compile(f, backend="aot_eager")
compiled(torch.randn(4, 3))  # 0/0: static
compiled(torch.randn(5, 3))  # 0/1: size mismatch -> automatic dynamic on dim 0
compiled(torch.randn(7, 3))  # no recompile: 0/1 is dynamic
compiled(torch.randn(1, 3))  # 0/2: size 1 fails the 2 <= size guard
