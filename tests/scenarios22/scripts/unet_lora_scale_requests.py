"""Serving a small text-to-image UNet with a LoRA-style strength per request.

Each request carries its own adapter strength, passed to the UNet through
cross_attention_kwargs={"scale": ...}. The denoiser call is compiled once at
startup and reused for every request.
"""

import torch
from diffusers import UNet2DConditionModel

torch.manual_seed(0)

# tiny random UNet, nothing downloaded
unet = UNet2DConditionModel(
    sample_size=16,
    in_channels=4,
    out_channels=4,
    block_out_channels=(32, 64),
    layers_per_block=1,
    down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
    up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
    cross_attention_dim=32,
    attention_head_dim=8,
    norm_num_groups=8,
).eval()

denoise = torch.compile(unet, backend="aot_eager")

requests = [
    {"prompt_len": 8, "lora_scale": 1.0, "steps": 2},
    {"prompt_len": 8, "lora_scale": 1.0, "steps": 2},
    {"prompt_len": 8, "lora_scale": 0.6, "steps": 2},
    {"prompt_len": 8, "lora_scale": 0.8, "steps": 2},
    {"prompt_len": 8, "lora_scale": 1.0, "steps": 2},
]


@torch.no_grad()
def generate(req):
    text_emb = torch.randn(1, req["prompt_len"], 32)  # stand-in for a text encoder
    latents = torch.randn(1, 4, 16, 16)
    for t in torch.linspace(999, 0, req["steps"]).long():
        noise_pred = denoise(
            latents,
            t,
            encoder_hidden_states=text_emb,
            cross_attention_kwargs={"scale": req["lora_scale"]},
        ).sample
        # crude Euler-ish update, good enough for a smoke test
        latents = latents - 0.1 * noise_pred
    return latents


for i, req in enumerate(requests):
    out = generate(req)
    print(f"request {i} scale {req['lora_scale']} mean {out.mean().item():.4f}")
