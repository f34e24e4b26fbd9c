"""Distil a wide MLP teacher into a small student on a synthetic 10-class task.

The softening temperature and the soft/hard mix are lowered every epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_FEATURES, N_CLASSES = 20, 10


def mlp(hidden, p_drop):
    return nn.Sequential(
        nn.Linear(N_FEATURES, hidden),
        nn.ReLU(),
        nn.Dropout(p_drop),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, N_CLASSES),
    )


proj = torch.randn(N_FEATURES, N_CLASSES)


def batch(n=64):
    x = torch.randn(n, N_FEATURES)
    y = (x @ proj + 0.3 * torch.randn(n, N_CLASSES)).argmax(-1)
    return x, y


# quick teacher pre-training (eager)
teacher = mlp(128, 0.2)
opt_t = torch.optim.Adam(teacher.parameters(), lr=3e-3)
for _ in range(30):
    x, y = batch()
    loss = F.cross_entropy(teacher(x), y)
    opt_t.zero_grad()
    loss.backward()
    opt_t.step()
teacher.eval()
teacher.requires_grad_(False)

student = mlp(24, 0.0)


def distill_loss(x, y, temperature, alpha):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = F.kl_div(
        F.log_softmax(s_logits / temperature, dim=-1),
        F.softmax(t_logits / temperature, dim=-1),
        reduction="batchmean",
    ) * temperature**2
    hard = F.cross_entropy(s_logits, y)
    return alpha * soft + (1.0 - alpha) * hard, s_logits


loss_fn = torch.compile(distill_loss, backend="aot_eager")
opt = torch.optim.AdamW(student.parameters(), lr=2e-3)

EPOCHS, STEPS = 4, 5
for epoch in range(EPOCHS):
    temperature = 4.0 - 0.75 * epoch
    alpha = 0.9 - 0.2 * epoch
    correct = 0
    for step in range(STEPS):
        x, y = batch()
        loss, logits = loss_fn(x, y, temperature, alpha)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(-1) == y).sum().item()
    print(f"epoch {epoch} T={temperature:.2f} alpha={alpha:.2f} loss={loss.item():.4f} "
          f"acc={correct / (STEPS * 64):.3f}")
