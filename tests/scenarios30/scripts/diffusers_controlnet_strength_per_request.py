"""Serving edge-guided generation with a small diffusers ControlNet.

Each request comes with an edge map and a control strength chosen by the
user in the UI slider (how closely the output must follow the edges). The
compiled function runs the ControlNet on the noisy latents and returns the
residuals that the UNet adds to its skip connections.
"""

import torch
from diffusers import ControlNetModel

torch.manual_seed(0)

# tiny random config, nothing downloaded
controlnet = ControlNetModel(
    in_channels=4,
    block_out_channels=(16, 32),
    down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
    layers_per_block=1,
    cross_attention_dim=32,
    attention_head_dim=4,
    norm_num_groups=8,
    conditioning_embedding_out_channels=(8, 16),
).eval()


@torch.compile(backend="aot_eager")
def control_residuals(latents, t, text_emb, edges, strength):
    down, mid = controlnet(
        latents,
        t,
        encoder_hidden_states=text_emb,
        controlnet_cond=edges,
        conditioning_scale=strength,
        return_dict=False,
    )
    return down, mid


# (request id, slider value) as they arrived
requests = [("a", 1.0), ("b", 1.0), ("c", 0.6), ("d", 1.0), ("e", 0.35), ("f", 0.6)]

with torch.no_grad():
    for rid, strength in requests:
        latents = torch.randn(1, 4, 16, 16)
        edges = (torch.rand(1, 3, 32, 32) > 0.9).float()
        text_emb = torch.randn(1, 7, 32)
        for t in (torch.tensor(900), torch.tensor(500), torch.tensor(100)):
            down, mid = control_residuals(latents, t, text_emb, edges, strength)
            latents = latents - 0.1 * mid.mean()
        print(f"request {rid}: strength {strength} mid residual norm {mid.norm().item():.3f}")
