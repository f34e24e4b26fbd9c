# BYOL-style target network updated by EMA; the momentum follows a cosine
# schedule from 0.99 to 1.0 and is passed as a Python float to a compiled
# update function. The online predictor is trained on two augmented views.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.proj = mlp(32, 64, 16)

    def forward(self, x):
        return self.proj(self.conv(x))


online = Encoder()
predictor = mlp(16, 64, 16)
target = Encoder()
target.load_state_dict(online.state_dict())
target.requires_grad_(False)

opt = torch.optim.AdamW(list(online.parameters()) + list(predictor.parameters()), lr=1e-3)


@torch.compile(backend="aot_eager")
def ema_update(online_params, target_params, momentum):
    for po, pt in zip(online_params, target_params):
        pt.mul_(momentum).add_(po, alpha=1.0 - momentum)


@torch.compile(backend="aot_eager")
def byol_step(v1, v2):
    p1 = predictor(online(v1))
    p2 = predictor(online(v2))
    with torch.no_grad():
        z1 = target(v1)
        z2 = target(v2)
    loss = 2 - 2 * F.cosine_similarity(p1, z2.detach(), dim=-1).mean()
    loss = loss + 2 - 2 * F.cosine_similarity(p2, z1.detach(), dim=-1).mean()
    return loss


def augment(x):
    flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
    x = torch.where(flip, x.flip(-1), x)
    return (x + 0.05 * torch.randn_like(x)).clamp(0, 1)


total_steps = 6
base_m = 0.99
for step in range(total_steps):
    x = torch.rand(16, 3, 24, 24)
    loss = byol_step(augment(x), augment(x))
    opt.zero_grad()
    loss.backward()
    opt.step()
    m = 1 - (1 - base_m) * (math.cos(math.pi * step / total_steps) + 1) / 2
    with torch.no_grad():
        ema_update(list(online.parameters()), list(target.parameters()), m)
    print(f"step {step} loss {loss.item():.4f} momentum {m:.5f}")
