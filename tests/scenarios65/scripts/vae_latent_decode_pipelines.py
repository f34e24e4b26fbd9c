"""Shared VAE decoder for several generation pipelines (tiny diffusers VAE)."""
import torch
from diffusers import AutoencoderKL

torch.manual_seed(0)

vae = AutoencoderKL(
    in_channels=3,
    out_channels=3,
    down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
    up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"),
    block_out_channels=(16, 32),
    layers_per_block=1,
    latent_channels=4,
    norm_num_groups=8,
    sample_size=32,
).eval()

# Latent normalisation of each upstream pipeline.
PIPELINES = {
    "sd15": {"scaling_factor": 0.18215, "shift_factor": None},
    "sdxl": {"scaling_factor": 0.13025, "shift_factor": None},
    "sd3": {"scaling_factor": 1.5305, "shift_factor": 0.0609},
}


@torch.compile(backend="aot_eager")
def decode(latents, norm):
    latents = latents / norm["scaling_factor"]
    if norm["shift_factor"] is not None:
        latents = latents + norm["shift_factor"]
    image = vae.decode(latents).sample
    return (image.clamp(-1, 1) + 1) / 2


jobs = ["sd15", "sd15", "sdxl", "sd15", "sd3", "sdxl", "sd3", "sd15"]

with torch.no_grad():
    for i, name in enumerate(jobs):
        latents = torch.randn(2, 4, 16, 16)
        images = decode(latents, PIPELINES[name])
        print(f"job {i} ({name}): images {tuple(images.shape)} mean {images.mean().item():.4f}")
