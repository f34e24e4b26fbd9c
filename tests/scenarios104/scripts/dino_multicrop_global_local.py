# DINO-style pretraining step: two global crops (32x32) and four local crops
# (16x16) go through one compiled student backbone; the teacher only sees the
# global crops. Centering of teacher outputs with an EMA centre.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvBackbone(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.block = nn.Sequential(nn.Conv2d(16, dim, 3, stride=2, padding=1), nn.BatchNorm2d(dim), nn.GELU())
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.block(F.gelu(self.stem(x)))).flatten(1)


class DINOHead(nn.Module):
    def __init__(self, dim=32, out_dim=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, 16))
        self.last = nn.utils.parametrizations.weight_norm(nn.Linear(16, out_dim, bias=False))

    def forward(self, x):
        return self.last(F.normalize(self.mlp(x), dim=-1))


student = nn.Sequential(ConvBackbone(), DINOHead())
teacher = nn.Sequential(ConvBackbone(), DINOHead())
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad_(False)

student_c = torch.compile(student, backend="aot_eager")
teacher_c = torch.compile(teacher, backend="aot_eager")
opt = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
center = torch.zeros(1, 64)


def multicrop(images):
    global_crops = [F.interpolate(images[:, :, i:i + 40, i:i + 40], size=32, mode="bilinear") for i in (0, 8)]
    local_crops = [F.interpolate(images[:, :, i:i + 20, j:j + 20], size=16, mode="bilinear")
                   for i in (0, 20) for j in (4, 24)]
    return global_crops, local_crops


def dino_loss(s_out, t_out, center, s_temp=0.1, t_temp=0.04):
    t_probs = [F.softmax((t - center) / t_temp, dim=-1) for t in t_out]
    total, n = 0.0, 0
    for iq, q in enumerate(t_probs):
        for iv, s in enumerate(s_out):
            if iv == iq:
                continue
            total = total + torch.sum(-q * F.log_softmax(s / s_temp, dim=-1), dim=-1).mean()
            n += 1
    return total / n


for step in range(4):
    images = torch.rand(8, 3, 48, 48)
    g, l = multicrop(images)
    with torch.no_grad():
        t_out = [teacher_c(x) for x in g]
    s_out = [student_c(x) for x in g] + [student_c(x) for x in l]
    loss = dino_loss(s_out, t_out, center)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        center = 0.9 * center + 0.1 * torch.cat(t_out).mean(0, keepdim=True)
        for ps, pt in zip(student.parameters(), teacher.parameters()):
            pt.mul_(0.996).add_(ps.detach(), alpha=0.004)
    print(f"step {step} loss {loss.item():.4f}")
