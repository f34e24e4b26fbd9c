"""Knowledge distillation of a small MLP student from a wider frozen teacher.

The distillation temperature and the soft/hard mixing weight alpha follow a
per-epoch schedule (temperature annealed from 4 to 1, alpha lowered so the
student leans more on the hard labels late in training).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES = 12
teacher = nn.Sequential(nn.Linear(32, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(),
                        nn.Linear(256, NUM_CLASSES))
student = nn.Sequential(nn.Linear(32, 48), nn.GELU(), nn.Linear(48, NUM_CLASSES))
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)


@torch.compile(backend="aot_eager")
def distill_loss(student_logits, teacher_logits, labels, temperature, alpha):
    s = F.log_softmax(student_logits / temperature, dim=-1)
    t = F.log_softmax(teacher_logits / temperature, dim=-1)
    soft = F.kl_div(s, t, reduction="batchmean", log_target=True) * temperature ** 2
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1.0 - alpha) * hard


def kd_schedule(epoch, num_epochs):
    # step schedule: (temperature, alpha)
    if epoch < num_epochs // 3:
        return 4.0, 0.9
    if epoch < 2 * num_epochs // 3:
        return 2.0, 0.7
    return 1.0, 0.5


opt = torch.optim.AdamW(student.parameters(), lr=3e-3)
xs = torch.randn(256, 32)
ys = torch.randint(0, NUM_CLASSES, (256,))
NUM_EPOCHS = 6

for epoch in range(NUM_EPOCHS):
    temperature, alpha = kd_schedule(epoch, NUM_EPOCHS)
    perm = torch.randperm(xs.size(0))
    total = 0.0
    for i in range(0, 256, 64):
        idx = perm[i:i + 64]
        x, y = xs[idx], ys[idx]
        with torch.no_grad():
            t_logits = teacher(x)
        loss = distill_loss(student(x), t_logits, y, temperature, alpha)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} T={temperature} alpha={alpha} loss {total / 4:.4f}")

with torch.no_grad():
    agree = (student(xs).argmax(-1) == teacher(xs).argmax(-1)).float().mean().item()
print(f"student/teacher agreement {agree:.3f}")
