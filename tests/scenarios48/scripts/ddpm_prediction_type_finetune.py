import torch
import torch.nn as nn
import torch.nn.functional as F
from diffusers import DDPMScheduler

torch.manual_seed(0)

# Two checkpoint configs from the model zoo: one trained on noise, one on velocity.
CHECKPOINTS = [
    {"name": "sd-tiny-base", "prediction_type": "epsilon", "steps": 6},
    {"name": "sd-tiny-v", "prediction_type": "v_prediction", "steps": 6},
]


class TinyDenoiser(nn.Module):
    def __init__(self, ch=4, hidden=32):
        super().__init__()
        self.t_embed = nn.Embedding(1000, hidden)
        self.conv_in = nn.Conv2d(ch, hidden, 3, padding=1)
        self.conv_mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.conv_out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x) + self.t_embed(t)[:, :, None, None]
        h = F.silu(self.conv_mid(F.silu(h)))
        return self.conv_out(h)


def training_loss(model, scheduler, latents):
    noise = torch.randn_like(latents)
    t = torch.randint(0, scheduler.config.num_train_timesteps, (latents.shape[0],))
    noisy = scheduler.add_noise(latents, noise, t)
    pred = model(noisy, t)
    if scheduler.config.prediction_type == "epsilon":
        target = noise
    elif scheduler.config.prediction_type == "v_prediction":
        target = scheduler.get_velocity(latents, noise, t)
    else:
        raise ValueError(scheduler.config.prediction_type)
    return F.mse_loss(pred, target)


compiled_loss = torch.compile(training_loss, backend="aot_eager")


def finetune(ckpt):
    model = TinyDenoiser()
    scheduler = DDPMScheduler(num_train_timesteps=1000, prediction_type=ckpt["prediction_type"])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(ckpt["steps"]):
        latents = torch.randn(4, 4, 8, 8)
        loss = compiled_loss(model, scheduler, latents)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{ckpt['name']}: final loss {loss.item():.4f}")


for ckpt in CHECKPOINTS:
    finetune(ckpt)
