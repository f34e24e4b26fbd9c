"""Progressive resizing for a tiny timm ViT: train at 16x16, then 24x24, then
32x32, resizing the patch grid and position embeddings with
`model.set_input_size` between stages. The model is compiled once.
"""
import torch
import torch.nn.functional as F
import timm

torch.manual_seed(0)

STAGES = [(16, 2), (24, 2), (32, 2)]  # (image size, epochs)

model = timm.create_model(
    "vit_tiny_patch16_224", pretrained=False, img_size=16, patch_size=4,
    embed_dim=32, depth=2, num_heads=2, num_classes=10,
)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.05)
compiled = torch.compile(model, backend="aot_eager")

base_images = torch.randn(32, 3, 40, 40)
labels = torch.randint(0, 10, (32,))

for size, epochs in STAGES:
    model.set_input_size(img_size=size)
    images = F.interpolate(base_images, size=(size, size), mode="bilinear", antialias=True)
    for epoch in range(epochs):
        for i in range(0, 32, 16):
            logits = compiled(images[i:i + 16])
            loss = F.cross_entropy(logits, labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"size {size} epoch {epoch} loss {loss.item():.4f}")
