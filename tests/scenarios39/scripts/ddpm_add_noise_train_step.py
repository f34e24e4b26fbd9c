"""Train a small denoiser with the DDPM epsilon objective; the noising uses
diffusers' DDPMScheduler.add_noise inside the compiled training step."""

import torch
from torch import nn
from diffusers import DDPMScheduler


class Denoiser(nn.Module):
    def __init__(self, ch=3, hidden=32, t_dim=32):
        super().__init__()
        self.t_embed = nn.Sequential(nn.Linear(1, t_dim), nn.SiLU(), nn.Linear(t_dim, hidden))
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        h = torch.relu(self.inp(x))
        h = h + self.t_embed(t.float()[:, None] / 1000.0)[:, :, None, None]
        h = torch.relu(self.mid(h))
        return self.out(h)


def main():
    torch.manual_seed(0)
    scheduler = DDPMScheduler(num_train_timesteps=1000, beta_schedule="squaredcos_cap_v2")
    model = Denoiser()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)

    def train_step(clean):
        noise = torch.randn_like(clean)
        t = torch.randint(0, scheduler.config.num_train_timesteps, (clean.shape[0],))
        noisy = scheduler.add_noise(clean, noise, t)
        pred = model(noisy, t)
        loss = nn.functional.mse_loss(pred, noise)
        loss.backward()
        return loss

    step = torch.compile(train_step, backend="aot_eager")
    data = torch.rand(44, 3, 16, 16) * 2 - 1
    batch = 16
    for epoch in range(2):
        perm = torch.randperm(data.shape[0])
        for i in range(0, data.shape[0], batch):
            clean = data[perm[i:i + batch]]
            opt.zero_grad(set_to_none=True)
            loss = step(clean)
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
