import torch
import torch.nn as nn
import torch.nn.functional as F
from diffusers import DDPMScheduler
from diffusers.models.embeddings import TimestepEmbedding, Timesteps
from diffusers.training_utils import EMAModel

torch.manual_seed(0)


class Denoiser(nn.Module):
    def __init__(self, ch=32, emb=64):
        super().__init__()
        self.proj = Timesteps(ch, flip_sin_to_cos=True, downscale_freq_shift=0)
        self.temb = TimestepEmbedding(ch, emb)
        self.c1 = nn.Conv2d(3, ch, 3, padding=1)
        self.bias = nn.Linear(emb, ch)
        self.c2 = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t):
        e = self.temb(self.proj(t))
        return self.c2(F.silu(self.c1(x) + self.bias(e)[:, :, None, None]))


model = Denoiser()
ema = EMAModel(model.parameters(), decay=0.999, use_ema_warmup=True, inv_gamma=1.0, power=0.75)
ema_step = torch.compile(ema.step, backend="aot_eager")
params = list(model.parameters())
scheduler = DDPMScheduler(num_train_timesteps=100)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
data = torch.rand(64, 3, 16, 16) * 2 - 1

for epoch in range(2):
    for i in range(0, 64, 16):
        x0 = data[i : i + 16]
        noise = torch.randn_like(x0)
        t = torch.randint(0, 100, (16,))
        loss = F.mse_loss(model(scheduler.add_noise(x0, noise, t), t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_step(params)
    print(f"epoch {epoch}: loss {loss.item():.4f} ema decay {ema.cur_decay_value:.4f}")
