"""Multi-task regression where each task has its own loss.

Three sensor targets are predicted from shared features. The config says which
loss each task uses (robust losses for the noisy sensors); the loop cycles
through the tasks and the compiled step looks the loss up by name.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

LOSSES = {
    "mse": F.mse_loss,
    "l1": F.l1_loss,
    "huber": F.huber_loss,
    "smooth_l1": F.smooth_l1_loss,
}

TASKS = {
    "temperature": {"loss": "mse", "head": 0},
    "vibration": {"loss": "huber", "head": 1},
    "pressure": {"loss": "l1", "head": 2},
}

trunk = nn.Sequential(nn.Linear(20, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU())
heads = nn.ModuleList([nn.Linear(64, 1) for _ in TASKS])
params = list(trunk.parameters()) + list(heads.parameters())
opt = torch.optim.Adam(params, lr=1e-3)


@torch.compile(backend="aot_eager")
def task_step(x, y, head_idx, loss_name):
    pred = heads[head_idx](trunk(x)).squeeze(-1)
    loss = LOSSES[loss_name](pred, y)
    loss.backward()
    return loss


def fake_batch(task, n=32):
    x = torch.randn(n, 20)
    y = x[:, :4].sum(1) + (0.1 if task == "temperature" else 1.0) * torch.randn(n)
    return x, y


for epoch in range(3):
    for task, spec in TASKS.items():
        x, y = fake_batch(task)
        opt.zero_grad()
        loss = task_step(x, y, spec["head"], spec["loss"])
        opt.step()
        print(f"epoch {epoch} {task:12s} {spec['loss']:6s} {loss.item():.4f}")
