"""Experience replay (ER) for class-incremental learning.

Each incoming batch of the current task is mixed with a batch drawn from a
reservoir-sampled memory of earlier examples. The compiled train step takes
the replay tensors as optional arguments: during the first task the memory
is empty and None is passed; the replay batch is as large as the memory
allows, up to the incoming batch size.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class ReservoirBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.x, self.y = [], []
        self.seen = 0

    def add(self, xb, yb):
        for xi, yi in zip(xb, yb):
            if len(self.x) < self.capacity:
                self.x.append(xi)
                self.y.append(yi)
            else:
                j = random.randint(0, self.seen)
                if j < self.capacity:
                    self.x[j], self.y[j] = xi, yi
            self.seen += 1

    def sample(self, n):
        if not self.x:
            return None, None
        idx = random.sample(range(len(self.x)), min(n, len(self.x)))
        return torch.stack([self.x[i] for i in idx]), torch.stack([self.y[i] for i in idx])


net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 6))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
memory = ReservoirBuffer(capacity=200)


@torch.compile(backend="aot_eager")
def train_step(x, y, mem_x=None, mem_y=None):
    if mem_x is not None:
        x = torch.cat([x, mem_x])
        y = torch.cat([y, mem_y])
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    return loss


centres = torch.randn(6, 20) * 2
for task, classes in enumerate([(0, 1), (2, 3), (4, 5)]):
    for step in range(4):
        y = torch.tensor(classes)[torch.randint(0, 2, (16,))]
        x = centres[y] + torch.randn(16, 20)
        mx, my = memory.sample(16)
        opt.zero_grad()
        loss = train_step(x, y, mx, my)
        opt.step()
        memory.add(x, y)
    print(f"task {task} loss {loss.item():.3f} memory {len(memory.x)}")
