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
    mid_block_add_attention=False,
).eval()

SLICE_ABOVE = 6


def decode_latents(latents):
    images = vae.decode(latents / vae.config.scaling_factor).sample
    return (images / 2 + 0.5).clamp(0, 1)


decode = torch.compile(decode_latents, backend="aot_eager")

# Requests coming off the preview queue: mostly small, sometimes a big grid.
batch_sizes = [2, 4, 2, 8, 4, 8, 2]
with torch.no_grad():
    for i, bs in enumerate(batch_sizes):
        if bs > SLICE_ABOVE:
            vae.enable_slicing()
        else:
            vae.disable_slicing()
        latents = torch.randn(bs, 4, 8, 8)
        images = decode(latents)
        print(f"request {i}: batch {bs} -> {tuple(images.shape)} mean {images.mean().item():.4f}")
