"""Serve a tiny text-conditioned UNet denoiser with per-style FreeU settings."""
import torch
from diffusers import UNet2DConditionModel

torch.manual_seed(0)

unet = UNet2DConditionModel(
    sample_size=8,
    in_channels=4,
    out_channels=4,
    layers_per_block=1,
    block_out_channels=(32, 64),
    down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
    up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
    cross_attention_dim=32,
    attention_head_dim=8,
    norm_num_groups=8,
).eval()

STYLES = {
    "photo": None,
    "anime": dict(s1=0.9, s2=0.2, b1=1.2, b2=1.4),
    "painting": dict(s1=0.8, s2=0.5, b1=1.1, b2=1.2),
}


@torch.compile(backend="aot_eager")
def denoise(latents, t, text_emb):
    return unet(latents, t, encoder_hidden_states=text_emb).sample


def serve(request):
    style = STYLES[request["style"]]
    if style is None:
        unet.disable_freeu()
    else:
        unet.enable_freeu(**style)
    latents = torch.randn(1, 4, 8, 8)
    text_emb = torch.randn(1, 6, 32)
    for t in (900, 500, 100):
        eps = denoise(latents, torch.tensor([t]), text_emb)
        latents = latents - 0.1 * eps
    return latents


requests = [
    {"id": 1, "style": "photo"},
    {"id": 2, "style": "anime"},
    {"id": 3, "style": "anime"},
    {"id": 4, "style": "photo"},
    {"id": 5, "style": "painting"},
    {"id": 6, "style": "anime"},
]
with torch.no_grad():
    for req in requests:
        out = serve(req)
        print(req["id"], req["style"], round(out.abs().mean().item(), 4))
