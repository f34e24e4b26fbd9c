import torch
import torch.nn as nn
from diffusers import FlowMatchEulerDiscreteScheduler

torch.manual_seed(0)


class TinyVelocityNet(nn.Module):
    def __init__(self, ch=4, hidden=16):
        super().__init__()
        self.t_proj = nn.Linear(1, hidden)
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.t_proj(t.view(-1, 1)).view(x.shape[0], -1, 1, 1)
        h = torch.nn.functional.silu(self.mid(torch.nn.functional.silu(h)))
        return self.out(h)


net = TinyVelocityNet().eval()
scheduler = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000, shift=3.0)


@torch.compile(backend="aot_eager")
def denoise_step(latents, t):
    velocity = net(latents, t.expand(latents.shape[0]) / 1000.0)
    return scheduler.step(velocity, t, latents, return_dict=False)[0]


def generate(batch, steps, size=8):
    latents = torch.randn(batch, 4, size, size)
    scheduler.set_timesteps(steps)
    for t in scheduler.timesteps:
        latents = denoise_step(latents, t)
    return latents


with torch.no_grad():
    for req, (batch, steps) in enumerate([(2, 4), (2, 4), (1, 6)]):
        img = generate(batch, steps)
        print("request", req, tuple(img.shape), float(img.abs().mean()))
