"""Recompiles once: a global read inside the compiled function changes."""

import torch

MODE = "train"


@torch.compile(backend="eager")
def step(x):
    if MODE == "train":
        return x * 2
    return x + 1


step(torch.ones(4))
MODE = "eval"
step(torch.ones(4))
print("recompiling: done", flush=True)
