"""shape_input: an input `x` changes size (static shapes -> no automatic dynamic)."""
import torch

torch.manual_seed(0)


def f(x):
    return torch.relu(x) * 2


compiled = torch.compile(f, backend="aot_eager", dynamic=False)
compiled(torch.randn(4, 3))  # 0/0
compiled(torch.randn(5, 3))  # 0/1: tensor 'x' size mismatch at index 0
