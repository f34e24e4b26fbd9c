"""Fine-tuning a tiny SegFormer on random crops, then segmenting full frames.

Training uses 64x64 crops with a label map (the model computes its own
loss); after training the user runs the same compiled model in eval mode
on whole 96x128 frames to produce masks.
"""

import torch
from transformers import SegformerConfig, SegformerForSemanticSegmentation

torch.manual_seed(0)

config = SegformerConfig(
    num_channels=3,
    num_encoder_blocks=2,
    depths=[1, 1],
    sr_ratios=[4, 2],
    hidden_sizes=[16, 32],
    patch_sizes=[7, 3],
    strides=[4, 2],
    num_attention_heads=[1, 2],
    mlp_ratios=[2, 2],
    decoder_hidden_size=32,
    num_labels=5,
)
model = SegformerForSemanticSegmentation(config)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)

frames = torch.randn(6, 3, 96, 128)
masks = torch.randint(0, 5, (6, 96, 128))


def random_crop(img, mask, size=64):
    top = torch.randint(0, img.shape[-2] - size + 1, ()).item()
    left = torch.randint(0, img.shape[-1] - size + 1, ()).item()
    return img[..., top : top + size, left : left + size], mask[..., top : top + size, left : left + size]


model.train()
for step in range(6):
    idx = torch.randint(0, 6, (4,))
    img, lab = random_crop(frames[idx], masks[idx])
    out = compiled(pixel_values=img.contiguous(), labels=lab.contiguous())
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} loss {out.loss.item():.4f}")

model.eval()
with torch.no_grad():
    for i in range(0, 6, 2):
        logits = compiled(pixel_values=frames[i : i + 2]).logits
        pred = torch.nn.functional.interpolate(logits, size=frames.shape[-2:], mode="bilinear").argmax(1)
        print(f"frames {i}-{i + 1}: classes present {pred.unique().tolist()}")
