"""Sampling images from a small denoiser with diffusers' DDPMScheduler.

Each request says how many denoising steps it can afford (fast previews
use fewer, final renders more). The scheduler is reset for that count and
one compiled function does a denoiser call plus the scheduler update.
"""

import torch
from torch import nn
from diffusers import DDPMScheduler

torch.manual_seed(0)


class TinyDenoiser(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.temb = nn.Linear(1, ch)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        h = torch.nn.functional.silu(self.inp(x))
        emb = self.temb(t.float().view(-1, 1) / 1000.0)
        h = h + emb[:, :, None, None]
        h = torch.nn.functional.silu(self.mid(h))
        return self.out(h)


denoiser = TinyDenoiser().eval()
scheduler = DDPMScheduler(num_train_timesteps=1000, beta_schedule="linear")


@torch.compile(backend="aot_eager")
def denoise_step(sample, t):
    noise_pred = denoiser(sample, t.expand(sample.shape[0]))
    return scheduler.step(noise_pred, t, sample).prev_sample


# (request id, steps the client asked for)
requests = [("preview-1", 10), ("preview-2", 10), ("final-1", 25), ("preview-3", 10)]

with torch.no_grad():
    for name, steps in requests:
        scheduler.set_timesteps(steps)
        sample = torch.randn(2, 3, 16, 16)
        for t in scheduler.timesteps:
            sample = denoise_step(sample, t)
        print(f"{name}: {steps} steps, pixel std {sample.std().item():.3f}")
