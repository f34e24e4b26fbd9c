"""Extract DINOv2 patch features for a retrieval index at several resolutions.

Images from the crawl come at different sizes; we resize each batch to the
nearest multiple of the patch size and keep the CLS token plus the mean of
the patch tokens as the embedding.
"""

import torch
import torch.nn.functional as F
from transformers import Dinov2Config, Dinov2Model

torch.manual_seed(0)

config = Dinov2Config(
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    patch_size=14,
    image_size=56,
)
model = Dinov2Model(config).eval()
encoder = torch.compile(model, backend="aot_eager")

PATCH = config.patch_size


def embed(pixels):
    with torch.no_grad():
        out = encoder(pixel_values=pixels)
    tokens = out.last_hidden_state
    cls, patches = tokens[:, 0], tokens[:, 1:]
    return F.normalize(torch.cat([cls, patches.mean(1)], dim=-1), dim=-1)


# (batch, height, width) of the incoming image batches
incoming = [(8, 56, 56), (8, 56, 56), (8, 70, 70), (4, 84, 56), (8, 56, 56)]

index = []
for b, h, w in incoming:
    imgs = torch.rand(b, 3, h, w)
    # snap to the patch grid
    h2, w2 = (h // PATCH) * PATCH, (w // PATCH) * PATCH
    pixels = imgs[:, :, :h2, :w2]
    index.append(embed(pixels))
    print(f"batch {b}x{h2}x{w2} -> {index[-1].shape}")

bank = torch.cat(index)
print("bank", bank.shape, "self-sim", (bank @ bank.t()).diag().mean().item())
