"""object_id: a function object passed as an argument is swapped (ID_MATCH)."""
import torch

torch.manual_seed(0)


def gelu_act(t):
    return torch.nn.functional.gelu(t)


def relu_act(t):
    return torch.relu(t)


def f(x, activation):
    return activation(x) + 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled(x, gelu_act)    # 0/0
compiled(x, relu_act)    # 0/1: ___check_obj_id(activation, ...) fails
