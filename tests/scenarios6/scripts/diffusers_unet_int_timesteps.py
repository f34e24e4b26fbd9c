"""Sample from a tiny diffusers UNet2DModel with a hand-written DDIM loop.

The user turns the scheduler's timesteps into a plain list of Python ints
once (they reuse it for every image and print it in the progress line) and
hands each one to the compiled UNet.
"""

import torch
from diffusers import DDIMScheduler, UNet2DModel

torch.manual_seed(0)

unet = UNet2DModel(
    sample_size=16,
    in_channels=3,
    out_channels=3,
    layers_per_block=1,
    block_out_channels=(16, 32),
    down_block_types=("DownBlock2D", "AttnDownBlock2D"),
    up_block_types=("AttnUpBlock2D", "UpBlock2D"),
    norm_num_groups=8,
    attention_head_dim=8,
)
unet.eval()
unet = torch.compile(unet, backend="aot_eager")

scheduler = DDIMScheduler(num_train_timesteps=1000, beta_schedule="linear")
scheduler.set_timesteps(8)
steps = [int(t) for t in scheduler.timesteps]

with torch.no_grad():
    for image_idx in range(2):
        sample = torch.randn(2, 3, 16, 16)
        for i, t in enumerate(steps):
            noise_pred = unet(sample, t).sample
            sample = scheduler.step(noise_pred, t, sample).prev_sample
            if i % 4 == 0:
                print(f"image {image_idx} step {i} t={t} std {sample.std().item():.3f}")
        # map back from [-1, 1] to [0, 1] before looking at the result
        image = (sample / 2 + 0.5).clamp(0, 1)
        print(f"image {image_idx} done, mean {image.mean().item():.4f}")
