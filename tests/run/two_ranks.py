"""Two ranks under torchrun (gloo, CPU): each compiles once; rank 1 then
changes a global the compiled function reads and recompiles alone."""

import os

import torch
import torch.distributed as dist

MODE = "train"


@torch.compile(backend="eager")
def step(x):
    if MODE == "train":
        return x * 2
    return x + 1


dist.init_process_group("gloo")
rank = dist.get_rank()
x = step(torch.ones(4))
if rank == 1:
    MODE = "eval"
    x = step(torch.ones(4))
dist.all_reduce(x)
dist.destroy_process_group()
print(f"rank {rank} of {os.environ['WORLD_SIZE']}: done", flush=True)
