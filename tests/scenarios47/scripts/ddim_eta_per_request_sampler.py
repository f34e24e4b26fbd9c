import torch
from diffusers import DDIMScheduler, UNet2DModel

torch.manual_seed(0)

unet = UNet2DModel(
    sample_size=16,
    in_channels=3,
    out_channels=3,
    layers_per_block=1,
    block_out_channels=(16, 32),
    down_block_types=("DownBlock2D", "DownBlock2D"),
    up_block_types=("UpBlock2D", "UpBlock2D"),
    norm_num_groups=8,
).eval()

scheduler = DDIMScheduler(num_train_timesteps=100, beta_schedule="linear", clip_sample=True)
scheduler.set_timesteps(5)


def denoise_step(sample, t, eta):
    noise_pred = unet(sample, t).sample
    return scheduler.step(noise_pred, t, sample, eta=eta).prev_sample


step = torch.compile(denoise_step, backend="aot_eager")


def sample_images(batch, eta, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, 3, 16, 16, generator=g)
    for t in scheduler.timesteps:
        x = step(x, t, eta)
    return x


# each request asks for its own stochasticity level
requests = [
    {"user": "a", "eta": 0.0},
    {"user": "b", "eta": 0.0},
    {"user": "c", "eta": 1.0},
    {"user": "d", "eta": 0.3},
    {"user": "e", "eta": 0.0},
]
with torch.no_grad():
    for i, req in enumerate(requests):
        imgs = sample_images(2, req["eta"], seed=i)
        print(f"request {i} user={req['user']} eta={req['eta']} mean={imgs.mean().item():.4f}")
