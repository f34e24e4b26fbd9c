"""container_len: a list argument `tensors` grows in length."""
import torch

torch.manual_seed(0)


def f(tensors):
    out = tensors[0]
    for t in tensors[1:]:
        out = out + t
    return out


compiled = torch.compile(f, backend="aot_eager")
a, b, c = torch.randn(4), torch.randn(4), torch.randn(4)
compiled([a, b])        # 0/0: len(tensors) == 2
compiled([a, b, c])     # 0/1: length guard fails
