import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_net():
    return nn.Sequential(
        nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 16)
    )


student = make_net()
teacher = make_net()
teacher.load_state_dict(student.state_dict())
teacher.requires_grad_(False)

opt = torch.optim.AdamW(student.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def ema_update(t_params, s_params, momentum):
    torch._foreach_lerp_(t_params, s_params, 1.0 - momentum)


def dino_loss(s_out, t_out, center, t_temp=0.04, s_temp=0.1):
    t = F.softmax((t_out - center) / t_temp, dim=-1)
    return -(t * F.log_softmax(s_out / s_temp, dim=-1)).sum(-1).mean()


base_m, total_steps = 0.99, 12
center = torch.zeros(16)
t_params = list(teacher.parameters())
s_params = list(student.parameters())

for step in range(total_steps):
    x = torch.randn(32, 20)
    v1 = x + 0.1 * torch.randn_like(x)
    v2 = x + 0.1 * torch.randn_like(x)
    with torch.no_grad():
        t_out = teacher(v1)
    s_out = student(v2)
    loss = dino_loss(s_out, t_out, center)
    opt.zero_grad()
    loss.backward()
    opt.step()
    center = 0.9 * center + 0.1 * t_out.mean(0)
    # cosine schedule from base_m to 1.0
    m = 1 - (1 - base_m) * (math.cos(math.pi * step / total_steps) + 1) / 2
    with torch.no_grad():
        ema_update(t_params, s_params, m)
    print(f"step {step} loss {loss.item():.4f} m {m:.5f}")
