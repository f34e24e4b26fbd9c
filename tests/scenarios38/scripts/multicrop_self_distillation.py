"""DINO-style multi-crop self-distillation: two global crops plus a number of
local crops that grows during training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(8, 32)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))


student = Backbone()
teacher = Backbone()
teacher.load_state_dict(student.state_dict())
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW(student.parameters(), lr=1e-3)


def multicrop_loss(global_crops, local_crops):
    with torch.no_grad():
        t_out = [F.softmax(teacher(g) / 0.04, dim=-1) for g in global_crops]
    s_out = [F.log_softmax(student(c) / 0.1, dim=-1) for c in global_crops + local_crops]
    total = 0.0
    for ti, t in enumerate(t_out):
        for si, s in enumerate(s_out):
            if si == ti:
                continue
            total = total + (-t * s).sum(-1).mean()
    return total / (len(t_out) * (len(s_out) - 1))


loss_fn = torch.compile(multicrop_loss, backend="aot_eager")


def crops(images, n, size):
    out = []
    for _ in range(n):
        i, j = torch.randint(0, 32 - size + 1, (2,)).tolist()
        out.append(images[:, :, i:i + size, j:j + size].clone())
    return out


local_schedule = [2, 2, 4, 4, 6, 6]
for step, n_local in enumerate(local_schedule):
    images = torch.randn(8, 3, 32, 32)
    g = crops(images, 2, 24)
    l = crops(images, n_local, 12)
    loss = loss_fn(g, l)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pt, ps in zip(teacher.parameters(), student.parameters()):
            pt.mul_(0.996).add_(ps, alpha=0.004)
    print(f"step {step} local crops {n_local} loss {loss.item():.4f}")
