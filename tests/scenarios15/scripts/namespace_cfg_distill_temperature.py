"""Knowledge distillation with a config object the loss reads.

Hyper-parameters live in a SimpleNamespace loaded once at start-up. After
the first epoch the temperature is lowered, and for the last epoch the
KL reduction is switched to "sum" to match the paper's recipe.
"""

import types

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

cfg = types.SimpleNamespace(
    temperature=4.0,
    alpha=0.7,
    kl_reduction="batchmean",
    epochs=3,
    steps_per_epoch=4,
)

teacher = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
student = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
opt = torch.optim.AdamW(student.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def distill_loss(x, y):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    t = cfg.temperature
    soft = F.kl_div(
        F.log_softmax(s_logits / t, dim=-1),
        F.softmax(t_logits / t, dim=-1),
        reduction=cfg.kl_reduction,
    ) * (t * t)
    hard = F.cross_entropy(s_logits, y)
    return cfg.alpha * soft + (1 - cfg.alpha) * hard


for epoch in range(cfg.epochs):
    if epoch == 1:
        cfg.temperature = 2.0
    if epoch == cfg.epochs - 1:
        cfg.kl_reduction = "sum"
    for step in range(cfg.steps_per_epoch):
        x = torch.randn(16, 32)
        y = torch.randint(0, 10, (16,))
        loss = distill_loss(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} T={cfg.temperature} loss {loss.item():.4f}")
