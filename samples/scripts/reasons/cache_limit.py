"""cache_limit: hit the recompile limit so Dynamo refuses to compile.

A str argument `mode` takes a new value each call; with
torch._dynamo.config.recompile_limit = 2 the third distinct value is refused.
"""
import torch

torch.manual_seed(0)
torch._dynamo.config.recompile_limit = 2


def f(x, mode):
    if mode == "add":
        return x + 1
    if mode == "mul":
        return x * 2
    return x - 1


compiled = torch.compile(f, backend="aot_eager")
x = torch.randn(4)
compiled(x, "add")     # 0/0
compiled(x, "mul")     # 0/1
compiled(x, "sub")     # 0/2: refused, recompile limit (2) reached; runs eagerly
compiled(x, "sub")     # eager, nothing logged
