"""Decoding latents of several resolutions with a small VAE.

A preview service turns latents from a generation queue back into images.
Requests come in at different resolutions (portrait, square, landscape).
"""

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
)
vae.eval()


@torch.compile(backend="eager")
def decode(latents):
    latents = latents / vae.config.scaling_factor
    image = vae.decode(latents).sample
    return (image / 2 + 0.5).clamp(0, 1)


# (height, width) of the latents for each request in the queue
queue = [(16, 16), (16, 16), (16, 24), (24, 16), (16, 16), (32, 32)]

with torch.no_grad():
    for n, (h, w) in enumerate(queue):
        latents = torch.randn(1, 4, h, w)
        image = decode(latents)
        print(f"request {n}: latents {h}x{w} -> image {tuple(image.shape[-2:])}, "
              f"mean {image.mean().item():.3f}")
