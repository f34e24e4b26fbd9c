"""Multi-task training on a shared trunk with one output head per task.
Batches come from a round-robin over the tasks."""

import torch
from torch import nn

TASK_CLASSES = [3, 7, 2]


class MultiTaskNet(nn.Module):
    def __init__(self, dim=24, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.LayerNorm(hidden))
        self.heads = nn.ModuleList(nn.Linear(hidden, c) for c in TASK_CLASSES)

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


def task_batches(steps, batch=16, dim=24):
    g = torch.Generator().manual_seed(7)
    for step in range(steps):
        task = step % len(TASK_CLASSES)
        x = torch.randn(batch, dim, generator=g)
        y = torch.randint(0, TASK_CLASSES[task], (batch,), generator=g)
        yield task, x, y


def main():
    torch.manual_seed(0)
    model = MultiTaskNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    forward = torch.compile(model, backend="aot_eager")

    running = [0.0] * len(TASK_CLASSES)
    for task, x, y in task_batches(9):
        loss = nn.functional.cross_entropy(forward(x, task), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running[task] = loss.item()
    print("last loss per task:", [round(v, 3) for v in running])


if __name__ == "__main__":
    main()
