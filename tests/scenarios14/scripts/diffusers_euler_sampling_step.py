"""Sampling loop for a small toy denoiser with diffusers' Euler scheduler.

The denoiser is our own tiny conv net (trained elsewhere); we compile the
body of one sampling step, model call plus scheduler update, to speed up
generation of a handful of samples.
"""

import torch
from diffusers import EulerDiscreteScheduler
from torch import nn

torch.manual_seed(0)


class ToyDenoiser(nn.Module):
    def __init__(self, ch=4, hidden=32):
        super().__init__()
        self.t_embed = nn.Sequential(nn.Linear(1, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        temb = self.t_embed(t.float().view(-1, 1) / 1000.0)
        h = torch.nn.functional.silu(self.inp(x) + temb[:, :, None, None])
        h = torch.nn.functional.silu(self.mid(h))
        return self.out(h)


model = ToyDenoiser().eval()
scheduler = EulerDiscreteScheduler(num_train_timesteps=1000, beta_schedule="scaled_linear")


@torch.compile(backend="aot_eager")
def sample_step(latents, t):
    model_in = scheduler.scale_model_input(latents, t)
    eps = model(model_in, t)
    return scheduler.step(eps, t, latents).prev_sample


@torch.no_grad()
def generate(n=2, steps=6):
    scheduler.set_timesteps(steps)
    latents = torch.randn(n, 4, 16, 16) * scheduler.init_noise_sigma
    for t in scheduler.timesteps:
        latents = sample_step(latents, t)
    return latents


for i in range(2):
    img = generate()
    print(f"sample batch {i}: mean {img.mean().item():.4f} std {img.std().item():.4f}")
