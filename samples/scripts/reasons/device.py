"""device: input `x` moves from the cpu device to the meta device."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.sin(x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4, 3)
compiled(x)                                  # 0/0: cpu
compiled(torch.empty(4, 3, device="meta"))   # 0/1: dispatch key set mismatch
