import torch
import torch.nn.functional as F
from diffusers import DiTTransformer2DModel, DDPMScheduler

torch.manual_seed(0)

model = DiTTransformer2DModel(
    num_attention_heads=2,
    attention_head_dim=8,
    in_channels=4,
    out_channels=4,
    num_layers=2,
    sample_size=8,
    patch_size=2,
    num_embeds_ada_norm=1000,
)
scheduler = DDPMScheduler(num_train_timesteps=1000)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)


def denoise(latents, t, labels):
    if not torch.is_tensor(t):
        t = torch.full((latents.shape[0],), t, dtype=torch.long)
    out = model(latents, timestep=t, class_labels=labels).sample
    return out


denoise_c = torch.compile(denoise, backend="aot_eager")


def preview(n=2, steps=4):
    scheduler.set_timesteps(steps)
    x = torch.randn(n, 4, 8, 8)
    labels = torch.arange(n) % 10
    for t in scheduler.timesteps.tolist():
        eps = denoise_c(x, t, labels)
        x = scheduler.step(eps.detach(), t, x).prev_sample
    return x


for step in range(6):
    latents = torch.randn(4, 4, 8, 8)
    labels = torch.randint(0, 10, (4,))
    noise = torch.randn_like(latents)
    t = torch.randint(0, 1000, (4,))
    noisy = scheduler.add_noise(latents, noise, t)
    pred = denoise_c(noisy, t, labels)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
    if step % 3 == 2:
        imgs = preview()
        print("preview", tuple(imgs.shape), float(imgs.std()))
