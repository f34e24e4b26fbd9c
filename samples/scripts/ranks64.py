"""64 ranks of one data-parallel job: every rank compiles the same model,
rank 17 gets a short batch once (an uneven shard: it recompiles alone) and
rank 42 is fed float64 once (a different cause on one rank); then every rank
evaluates once (the same recompile on all 64 ranks).

The ranks talk through torch's "fake" process group (collectives return at
once), so 64 ranks fit on a laptop; gradients are all-reduced by hand because
DDP's reducer needs collectives that return values, which the fake group does
not give. Everything else is real: each rank is its own process, with its own
torch.compile and TORCH_TRACE log
(dedicated_log_torch_trace_rank_<r>.log). Ranks run a few at a time, as
workers were slow to start on a busy host in the incident this reproduces.
"""

import multiprocessing as mp
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.testing._internal.distributed.fake_pg import FakeStore

WORLD = 64
AT_ONCE = max(2, os.cpu_count() or 2)


def train(rank):
    dist.init_process_group("fake", rank=rank, world_size=WORLD, store=FakeStore())
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(4):
        batch = 5 if (rank == 17 and step == 2) else 8
        dtype = torch.float64 if (rank == 42 and step == 1) else torch.float32
        x = torch.randn(batch, 16, dtype=dtype)
        if dtype is torch.float64:
            compiled.to(torch.float64)
        loss = compiled(x).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()
        opt.zero_grad()
        if dtype is torch.float64:
            compiled.to(torch.float32)
    model.eval()
    with torch.no_grad():
        compiled(torch.randn(8, 16))
    dist.destroy_process_group()


if __name__ == "__main__":
    # fork: each rank starts with torch imported, and is still its own process.
    ctx = mp.get_context("fork")
    pending = list(range(WORLD))
    running = []
    while pending or running:
        while pending and len(running) < AT_ONCE:
            p = ctx.Process(target=train, args=(pending.pop(0),))
            p.start()
            running.append(p)
        running[0].join()
        if running[0].exitcode != 0:
            raise SystemExit(f"a rank failed with exit code {running[0].exitcode}")
        running.pop(0)
    print(f"{WORLD} ranks done")
