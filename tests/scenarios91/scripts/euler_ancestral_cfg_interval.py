"""Classifier-free guidance sampling with a hand-driven diffusers scheduler.

A tiny class-conditional denoiser (plain torch) is trained for a few steps
with label dropout, then sampled with EulerAncestralDiscreteScheduler. Guidance is only
applied inside a guidance interval of the timesteps; outside it the
unconditional/conditional batch is not doubled.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from diffusers import EulerAncestralDiscreteScheduler

torch.manual_seed(0)
N_CLASSES, NULL = 4, 4


class TinyDenoiser(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.label = nn.Embedding(N_CLASSES + 1, ch)
        self.time = nn.Sequential(nn.Linear(1, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t, y):
        cond = self.label(y) + self.time(t.float().view(-1, 1) / 1000)
        h = F.silu(self.inp(x) + cond[:, :, None, None])
        h = F.silu(self.mid(h)) + h
        return self.out(h)


model = TinyDenoiser()
sched = EulerAncestralDiscreteScheduler(num_train_timesteps=1000, beta_schedule="scaled_linear")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
imgs = torch.randn(64, 3, 12, 12)
labels = torch.randint(0, N_CLASSES, (64,))

for step in range(4):
    idx = torch.randint(0, 64, (16,))
    x0, y = imgs[idx], labels[idx].clone()
    y[torch.rand(16) < 0.1] = NULL  # label dropout for CFG
    t = torch.randint(0, 1000, (16,))
    noise = torch.randn_like(x0)
    loss = F.mse_loss(model(sched.add_noise(x0, noise, t), t, y), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()

denoise = torch.compile(model, backend="aot_eager")


@torch.no_grad()
def sample(y, steps=8, guidance_scale=3.0, interval=(0.25, 0.75)):
    sched.set_timesteps(steps)
    x = torch.randn(y.shape[0], 3, 12, 12) * sched.init_noise_sigma
    for i, t in enumerate(sched.timesteps):
        xin = sched.scale_model_input(x, t)
        frac = i / steps
        if interval[0] <= frac < interval[1]:
            both = denoise(torch.cat([xin, xin]), t.expand(2 * y.shape[0]),
                           torch.cat([torch.full_like(y, NULL), y]))
            uncond, cond = both.chunk(2)
            eps = uncond + guidance_scale * (cond - uncond)
        else:
            eps = denoise(xin, t.expand(y.shape[0]), y)
        x = sched.step(eps, t, x).prev_sample
    return x


out = sample(torch.tensor([0, 1, 2, 3]))
print("sample", tuple(out.shape), float(out.std()))
