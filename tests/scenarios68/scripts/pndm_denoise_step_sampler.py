"""Sampling a tiny pixel-space diffusion model with diffusers' PNDM scheduler;
the whole denoising step (model + scheduler update) is compiled."""
import math

import torch
import torch.nn as nn
from diffusers import PNDMScheduler

torch.manual_seed(0)


class EpsNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.temb = nn.Linear(32, ch)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        half = 16
        freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
        args = t.float()[:, None] * freqs[None]
        emb = torch.cat([args.sin(), args.cos()], dim=1)
        h = torch.relu(self.inp(x) + self.temb(emb)[:, :, None, None])
        h = torch.relu(self.mid(h))
        return self.out(h)


model = EpsNet().eval()
scheduler = PNDMScheduler(num_train_timesteps=1000, skip_prk_steps=True)


@torch.compile(backend="aot_eager")
def denoise_step(latents, t):
    eps = model(latents, torch.full((latents.shape[0],), t))
    return scheduler.step(eps, t, latents).prev_sample


def sample(batch, steps):
    scheduler.set_timesteps(steps)
    latents = torch.randn(batch, 3, 16, 16) * scheduler.init_noise_sigma
    with torch.no_grad():
        for t in scheduler.timesteps.tolist():
            latents = denoise_step(latents, t)
    return latents.clamp(-1, 1)


for request in range(2):
    images = sample(batch=2, steps=6)
    print(f"request {request}: mean {images.mean().item():.4f} std {images.std().item():.4f}")
