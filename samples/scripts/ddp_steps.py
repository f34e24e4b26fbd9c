"""Two DDP ranks on gloo (CPU), each with a StepLogger and TORCH_TRACE:
rank 1 gets one short batch at step 2 (an uneven data shard), so it alone
recompiles. Its own StepLogger sees an expected one-off (torch made the dim
dynamic); the whole run, every rank's log together, shows a rank that
recompiled alone, which stalls the other at the next collective.

    TORCH_TRACE=samples/steps/ddp/trace python samples/scripts/ddp_steps.py samples/steps/ddp
"""

import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

import guardscope


def train(rank, world_size, out):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    ddp_model = DDP(model)
    compiled = torch.compile(ddp_model, backend="aot_eager")
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    log = guardscope.StepLogger(os.path.join(out, "steps_<rank>.jsonl"), warn=False)
    for step in range(1, 6):
        log.begin(step)
        batch_size = 5 if (rank == 1 and step == 3) else 8
        x = torch.randn(batch_size, 16)
        loss = compiled(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        log.end()
    log.close()
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    mp.spawn(train, args=(2, out), nprocs=2, join=True)
