import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def train(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    ddp_model = DDP(model)
    compiled = torch.compile(ddp_model, backend="aot_eager")
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    for step in range(4):
        # rank 1 gets a short batch once (uneven data shard)
        batch_size = 5 if (rank == 1 and step == 2) else 8
        x = torch.randn(batch_size, 16)
        loss = compiled(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"rank {rank} step {step} batch {batch_size} loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    mp.spawn(train, args=(2,), nprocs=2, join=True)
