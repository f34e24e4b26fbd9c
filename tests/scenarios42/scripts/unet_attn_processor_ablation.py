"""Evaluate a tiny text-conditioned UNet with its default attention and with a custom processor."""
import torch
import torch.nn.functional as F
from diffusers import UNet2DConditionModel
from diffusers.models.attention_processor import AttnProcessor2_0

torch.manual_seed(0)


class TemperedAttnProcessor:
    """Plain attention with a softmax temperature, for an attention-sharpness ablation."""

    def __init__(self, temperature=0.7):
        self.temperature = temperature

    def __call__(self, attn, hidden_states, encoder_hidden_states=None, attention_mask=None, temb=None, **kwargs):
        context = hidden_states if encoder_hidden_states is None else encoder_hidden_states
        q = attn.head_to_batch_dim(attn.to_q(hidden_states))
        k = attn.head_to_batch_dim(attn.to_k(context))
        v = attn.head_to_batch_dim(attn.to_v(context))
        scores = torch.bmm(q, k.transpose(1, 2)) * attn.scale / self.temperature
        out = attn.batch_to_head_dim(torch.bmm(scores.softmax(dim=-1), v))
        out = attn.to_out[1](attn.to_out[0](out))
        if attn.residual_connection:
            out = out + hidden_states
        return out / attn.rescale_output_factor


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
denoise = torch.compile(unet, backend="aot_eager")

val = [(torch.randn(2, 4, 8, 8), torch.randn(2, 6, 32), torch.randint(0, 1000, (2,))) for _ in range(3)]


def val_loss():
    total = 0.0
    with torch.no_grad():
        for x, text, t in val:
            noise = torch.randn_like(x)
            pred = denoise(x + noise, t, encoder_hidden_states=text).sample
            total += F.mse_loss(pred, noise).item()
    return total / len(val)


results = {}
for temperature in (None, 0.5, None, 0.9):
    if temperature is None:
        unet.set_attn_processor(AttnProcessor2_0())
        name = "default"
    else:
        unet.set_attn_processor(TemperedAttnProcessor(temperature))
        name = f"tempered_{temperature}"
    results[name] = round(val_loss(), 4)
    print(name, results[name])
