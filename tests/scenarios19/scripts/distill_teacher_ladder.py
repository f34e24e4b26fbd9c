"""Distil a small student through a ladder of progressively larger teachers.

"Teacher assistant" distillation: the student first learns from a narrow
teacher, then from wider ones once it has caught up.  Teachers are frozen
and kept in eval mode; the distiller (student + current teacher) is compiled.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

T = 2.0       # softmax temperature
ALPHA = 0.7   # weight of the soft-target term


def mlp(width, n_classes=10):
    return nn.Sequential(nn.Linear(20, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, n_classes))


def load_teacher(width):
    # stands in for torch.load of the checkpoint trained at that width
    teacher = mlp(width)
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher.eval()


class Distiller(nn.Module):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher

    def forward(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        soft = F.kl_div(
            F.log_softmax(s_logits / T, dim=-1),
            F.softmax(t_logits / T, dim=-1),
            reduction="batchmean",
        ) * (T * T)
        hard = F.cross_entropy(s_logits, y)
        return ALPHA * soft + (1 - ALPHA) * hard


student = mlp(16)
distiller = Distiller(student, load_teacher(64))
compiled = torch.compile(distiller, backend="aot_eager")
opt = torch.optim.Adam(student.parameters(), lr=2e-3)

ladder = {0: 64, 2: 128, 4: 256}  # epoch -> teacher width

x_all = torch.randn(256, 20)
y_all = torch.randint(0, 10, (256,))
for epoch in range(6):
    if epoch in ladder and epoch > 0:
        distiller.teacher = load_teacher(ladder[epoch])
        print(f"epoch {epoch}: switched to teacher width {ladder[epoch]}")
    for i in range(0, 256, 64):
        loss = compiled(x_all[i : i + 64], y_all[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} kd loss {loss.item():.4f}")
