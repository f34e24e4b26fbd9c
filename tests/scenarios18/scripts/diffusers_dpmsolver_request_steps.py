"""Toy latent sampler behind a small request queue, DPM-Solver++ scheduler.

Each request says how many denoising steps it wants (fast previews vs.
final renders). The denoise step -- model call plus scheduler update -- is
compiled once and reused for every request.
"""

import torch
from diffusers import DPMSolverMultistepScheduler
from torch import nn

torch.manual_seed(0)


class TinyEpsNet(nn.Module):
    # stand-in for the real denoiser: a couple of conv blocks with FiLM on t
    def __init__(self, ch=4, width=24):
        super().__init__()
        self.film = nn.Linear(16, 2 * width)
        self.conv_in = nn.Conv2d(ch, width, 3, padding=1)
        self.block = nn.Sequential(nn.GroupNorm(4, width), nn.SiLU(), nn.Conv2d(width, width, 3, padding=1))
        self.conv_out = nn.Conv2d(width, ch, 3, padding=1)
        self.register_buffer("freqs", torch.exp(-torch.arange(8) * 0.9))

    def forward(self, x, t):
        ang = t.float()[None] * self.freqs
        emb = torch.cat([ang.sin(), ang.cos()])
        scale, shift = self.film(emb).chunk(2)
        h = self.conv_in(x) * (1 + scale[:, None, None]) + shift[:, None, None]
        return self.conv_out(self.block(h))


model = TinyEpsNet().eval()
scheduler = DPMSolverMultistepScheduler(num_train_timesteps=1000, algorithm_type="dpmsolver++", solver_order=2)


@torch.compile(backend="aot_eager")
def denoise_step(latents, t):
    eps = model(latents, t)
    return scheduler.step(eps, t, latents).prev_sample


@torch.no_grad()
def render(num_inference_steps, seed):
    g = torch.Generator().manual_seed(seed)
    scheduler.set_timesteps(num_inference_steps)
    latents = torch.randn(1, 4, 16, 16, generator=g) * scheduler.init_noise_sigma
    for t in scheduler.timesteps:
        latents = denoise_step(latents, t)
    return latents


queue = [
    {"id": "preview-1", "steps": 4, "seed": 1},
    {"id": "preview-2", "steps": 4, "seed": 2},
    {"id": "final-1", "steps": 10, "seed": 1},
    {"id": "preview-3", "steps": 6, "seed": 3},
]

for req in queue:
    out = render(req["steps"], req["seed"])
    print(f"{req['id']}: {req['steps']} steps, latent std {out.std().item():.4f}")
