"""A shared encoder with one head per task, kept in an nn.ModuleDict.

The user trains sentiment, topic and toxicity classification together,
cycling through the tasks batch by batch; the forward takes the task name
and picks the head with `self.heads[task]`.
"""

import torch
from torch import nn

torch.manual_seed(0)

TASKS = {"sentiment": 2, "topic": 7, "toxicity": 2}


class MultiTaskModel(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(64, dim), nn.GELU(), nn.Linear(dim, dim), nn.GELU())
        self.heads = nn.ModuleDict({name: nn.Linear(dim, n) for name, n in TASKS.items()})

    def forward(self, x, task):
        return self.heads[task](self.encoder(x))


model = MultiTaskModel()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(2):
    for task, n_classes in TASKS.items():
        x = torch.randn(16, 64)
        loss = nn.functional.cross_entropy(compiled(x, task), torch.randint(0, n_classes, (16,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} {task:9s} loss {loss.item():.4f}")
