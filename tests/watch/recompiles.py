"""Recompiles once (a global read inside the compiled function changes),
then stays alive a while so `guardscope watch --until-exit` sees the
recompile while the job runs, not only at its end."""

import time

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
time.sleep(3)
