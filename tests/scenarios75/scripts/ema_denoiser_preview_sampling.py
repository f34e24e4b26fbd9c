import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from diffusers import DDIMScheduler
from diffusers.models.embeddings import TimestepEmbedding, Timesteps

torch.manual_seed(0)


class SmallDenoiser(nn.Module):
    def __init__(self, ch=32, emb=64):
        super().__init__()
        self.proj = Timesteps(ch, flip_sin_to_cos=True, downscale_freq_shift=0)
        self.temb = TimestepEmbedding(ch, emb)
        self.down = nn.Conv2d(3, ch, 3, stride=2, padding=1)
        self.bias = nn.Linear(emb, ch)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.ConvTranspose2d(ch, 3, 4, stride=2, padding=1)

    def forward(self, x, t):
        e = self.temb(self.proj(t))
        h = F.silu(self.down(x) + self.bias(e)[:, :, None, None])
        h = F.silu(self.mid(h)) + h
        return self.up(h)


@torch.no_grad()
def ema_update(ema, model, decay=0.99):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.lerp_(p, 1 - decay)


@torch.compile(backend="aot_eager")
def predict_noise(net, x, t):
    return net(x, t)


model = SmallDenoiser()
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
train_sched = DDIMScheduler(num_train_timesteps=100)
data = torch.rand(64, 3, 16, 16) * 2 - 1


@torch.no_grad()
def preview(net, n=4):
    sched = DDIMScheduler(num_train_timesteps=100)
    sched.set_timesteps(5)
    x = torch.randn(n, 3, 16, 16, generator=torch.Generator().manual_seed(0))
    for t in sched.timesteps:
        x = sched.step(predict_noise(net, x, t.expand(n)), t, x).prev_sample
    return x


for epoch in range(3):
    for i in range(0, 64, 16):
        x0 = data[i : i + 16]
        noise = torch.randn_like(x0)
        t = torch.randint(0, 100, (16,))
        xt = train_sched.add_noise(x0, noise, t)
        loss = F.mse_loss(predict_noise(model, xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(ema, model)
    online, averaged = preview(model), preview(ema)
    print(f"epoch {epoch}: loss {loss.item():.4f} online {online.std():.3f} ema {averaged.std():.3f}")
