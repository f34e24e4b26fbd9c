# Small text-to-image serving loop: a tiny conditional UNet behind torch.compile.
# After the first few requests we fuse the attention projections, which the
# diffusers docs recommend for throughput, and keep serving.
import torch
from diffusers import UNet2DConditionModel

torch.manual_seed(0)

unet = UNet2DConditionModel(
    sample_size=16,
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

compiled = torch.compile(unet, backend="aot_eager")


def encode_prompt(n_tokens=8):
    # stand-in for the text encoder output
    return torch.randn(1, n_tokens, 32)


def denoise(latents, text_emb, steps=3):
    for t in torch.linspace(900, 100, steps):
        eps = compiled(latents, t.long(), encoder_hidden_states=text_emb).sample
        latents = latents - 0.1 * eps
    return latents


@torch.no_grad()
def serve(n_requests):
    outs = []
    for _ in range(n_requests):
        lat = torch.randn(1, 4, 16, 16)
        outs.append(denoise(lat, encode_prompt()))
    return outs


# warm-up traffic
first = serve(2)
print("warm-up done", first[0].abs().mean().item())

# merge q/k/v into one matmul for the rest of the day
unet.fuse_qkv_projections()

rest = serve(3)
print("served", len(first) + len(rest), "requests", rest[-1].abs().mean().item())
