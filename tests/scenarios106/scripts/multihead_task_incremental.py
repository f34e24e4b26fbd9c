"""Task-incremental learning with one classifier head per task.

A shared MLP trunk is trained on a sequence of tasks (split-MNIST style,
random data); when a new task arrives a fresh head is added to an
nn.ModuleDict keyed by the task name. The multi-head model is compiled once.
After each task every head seen so far is evaluated.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiHeadNet(nn.Module):
    def __init__(self, in_dim=64, hidden=48):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleDict()
        self.hidden = hidden

    def add_task(self, name, n_classes):
        self.heads[name] = nn.Linear(self.hidden, n_classes)

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


model = MultiHeadNet()
compiled = torch.compile(model, backend="aot_eager")

tasks = {}
for t in range(3):
    protos = torch.randn(2, 64) * 2
    y = torch.randint(0, 2, (96,))
    tasks[f"task{t}"] = (protos[y] + torch.randn(96, 64), y)

for name, (x, y) in tasks.items():
    model.add_task(name, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model.train()
    for step in range(4):
        idx = torch.randint(0, 96, (32,))
        opt.zero_grad()
        loss = F.cross_entropy(compiled(x[idx], name), y[idx])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        accs = []
        for seen in model.heads:
            sx, sy = tasks[seen]
            accs.append((compiled(sx[:32], seen).argmax(-1) == sy[:32]).float().mean().item())
    print(f"after {name}: loss {loss.item():.3f} accs " + " ".join(f"{a:.2f}" for a in accs))
