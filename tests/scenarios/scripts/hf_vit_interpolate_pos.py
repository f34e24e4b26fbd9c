import torch
from transformers import ViTConfig, ViTForImageClassification

torch.manual_seed(0)

config = ViTConfig(
    image_size=32,
    patch_size=8,
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=1,
    num_attention_heads=2,
    num_labels=4,
)
model = ViTForImageClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")


@torch.no_grad()
def predict(images, interpolate=False):
    return compiled(pixel_values=images, interpolate_pos_encoding=interpolate).logits


for step in range(4):
    # native 32x32 crops, then full-resolution 48x48 frames for the same batch
    small = torch.randn(2, 3, 32, 32)
    large = torch.randn(2, 3, 48, 48)
    p1 = predict(small).argmax(-1)
    p2 = predict(large, interpolate=True).argmax(-1)
    print(f"step {step} {p1.tolist()} {p2.tolist()}")
