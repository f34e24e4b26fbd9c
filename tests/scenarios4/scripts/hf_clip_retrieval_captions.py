"""Zero-shot image-text retrieval with a small CLIP.

A user scores a batch of product photos against the captions written for
them. Each query batch comes with its own number of photos and captions, and
the captions are padded to the longest one in the batch.
"""

import torch
from transformers import CLIPConfig, CLIPModel

torch.manual_seed(0)

config = CLIPConfig(
    text_config=dict(vocab_size=200, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                     num_attention_heads=2, max_position_embeddings=40),
    vision_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                       num_attention_heads=2, image_size=32, patch_size=8),
    projection_dim=16,
)
model = CLIPModel(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def retrieve(n_images, n_captions, caption_len):
    pixels = torch.randn(n_images, 3, 32, 32)
    ids = torch.randint(1, 200, (n_captions, caption_len))
    mask = torch.ones_like(ids)
    with torch.no_grad():
        out = compiled(input_ids=ids, attention_mask=mask, pixel_values=pixels)
    return out.logits_per_image.argmax(-1)


for n_images, n_captions, caption_len in [(4, 4, 12), (4, 4, 12), (2, 6, 17), (8, 3, 9), (4, 4, 12)]:
    best = retrieve(n_images, n_captions, caption_len)
    print(f"images {n_images} captions {n_captions} len {caption_len} -> {best.tolist()}")
