"""DINO-style self-distillation: EMA teacher, centering and teacher temperature warm-up."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OUT = 32
EPOCHS = 5


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 16))
        self.last_layer = nn.Linear(16, OUT, bias=False)

    def forward(self, x):
        return self.last_layer(F.normalize(self.mlp(x), dim=-1))


def make_net():
    return Head()


class DINOLoss(nn.Module):
    def __init__(self, out_dim, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp = student_temp
        self.center_momentum = center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_out, teacher_out, teacher_temp):
        s = F.log_softmax(student_out / self.student_temp, dim=-1)
        t = F.softmax((teacher_out - self.center) / teacher_temp, dim=-1).detach()
        loss = torch.sum(-t * s, dim=-1).mean()
        with torch.no_grad():
            batch_center = teacher_out.mean(dim=0, keepdim=True)
            self.center.mul_(self.center_momentum).add_(batch_center * (1 - self.center_momentum))
        return loss


student = make_net()
teacher = copy.deepcopy(student).requires_grad_(False)
criterion = DINOLoss(OUT)
student_fwd = torch.compile(student, backend="aot_eager")
loss_fn = torch.compile(criterion, backend="aot_eager")
FREEZE_LAST_LAYER = 1
opt = torch.optim.AdamW(student.parameters(), lr=5e-4)

# teacher temperature warm-up, 0.04 -> 0.07
teacher_temps = np.concatenate([np.linspace(0.04, 0.07, 3), np.full(EPOCHS - 3, 0.07)])

data = torch.randn(128, 20)
for epoch in range(EPOCHS):
    student.last_layer.requires_grad_(epoch >= FREEZE_LAST_LAYER)
    for i in range(0, 128, 32):
        x = data[i:i + 32]
        v1 = x + 0.1 * torch.randn_like(x)
        v2 = x + 0.1 * torch.randn_like(x)
        with torch.no_grad():
            t_out = teacher(torch.cat([v1, v2]))
        s_out = student_fwd(torch.cat([v2, v1]))
        loss = loss_fn(s_out, t_out, teacher_temps[epoch])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for ps, pt in zip(student.parameters(), teacher.parameters()):
                pt.mul_(0.996).add_(ps.detach(), alpha=0.004)
    print(f"epoch {epoch} loss {loss.item():.4f} temp {teacher_temps[epoch]:.3f}")
