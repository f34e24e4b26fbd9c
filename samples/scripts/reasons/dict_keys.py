"""dict_keys: a dict argument `inputs` gains a key."""
import torch

torch.manual_seed(0)


def f(inputs):
    out = inputs["x"] * 2
    if "mask" in inputs:
        out = out * inputs["mask"]
    return out


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled({"x": x})                          # 0/0
compiled({"x": x, "mask": torch.ones(4)})   # 0/1: dict keys guard fails
