import torch
import torch.nn as nn
import torch.nn.functional as F
from diffusers import DDPMScheduler
from diffusers.models.embeddings import TimestepEmbedding, Timesteps

torch.manual_seed(0)

NUM_CLASSES = 10


class ClassCondDenoiser(nn.Module):
    def __init__(self, ch=32, emb=64):
        super().__init__()
        self.time_proj = Timesteps(ch, flip_sin_to_cos=True, downscale_freq_shift=0)
        self.time_emb = TimestepEmbedding(ch, emb)
        # last index is the "null" class used for unconditional guidance
        self.class_emb = nn.Embedding(NUM_CLASSES + 1, emb)
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.film = nn.Linear(emb, 2 * ch)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t, labels):
        e = self.time_emb(self.time_proj(t)) + self.class_emb(labels)
        scale, shift = self.film(F.silu(e)).chunk(2, dim=-1)
        h = F.silu(self.inp(x))
        h = h * (1 + scale[:, :, None, None]) + shift[:, :, None, None]
        h = F.silu(self.mid(h)) + h
        return self.out(h)


model = ClassCondDenoiser().eval()
denoise = torch.compile(model, backend="aot_eager")
scheduler = DDPMScheduler(num_train_timesteps=100)
scheduler.set_timesteps(6)


@torch.no_grad()
def sample(labels, guidance_scale):
    x = torch.randn(labels.shape[0], 3, 16, 16)
    null = torch.full_like(labels, NUM_CLASSES)
    for t in scheduler.timesteps:
        tt = t.expand(labels.shape[0])
        if guidance_scale == 1.0:
            eps = denoise(x, tt, labels)
        else:
            # batch conditional and unconditional passes together
            eps_c, eps_u = denoise(
                torch.cat([x, x]), torch.cat([tt, tt]), torch.cat([labels, null])
            ).chunk(2)
            eps = eps_u + guidance_scale * (eps_c - eps_u)
        x = scheduler.step(eps, t, x).prev_sample
    return x.clamp(-1, 1)


requests = [
    (torch.tensor([1, 2, 3, 4]), 4.0),
    (torch.tensor([5, 6, 7, 8]), 4.0),
    (torch.tensor([0, 9, 1, 2]), 1.0),
    (torch.tensor([3, 3, 3, 3]), 7.5),
    (torch.tensor([4, 5, 6, 7]), 1.0),
]
for i, (labels, gs) in enumerate(requests):
    imgs = sample(labels, gs)
    print(f"request {i}: guidance {gs} -> {tuple(imgs.shape)} mean {imgs.mean():.4f}")
