"""Fine-tune a tiny timm ViT on 32px crops, then check it on bigger images.

dynamic_img_size lets the same model take the 48px validation images
(the position embedding is resampled on the fly), so we keep one compiled
model for both.
"""

import torch
from timm.models.vision_transformer import VisionTransformer
from torch import nn

torch.manual_seed(0)

model = VisionTransformer(
    img_size=32,
    patch_size=8,
    num_classes=5,
    embed_dim=64,
    depth=2,
    num_heads=4,
    mlp_ratio=2.0,
    dynamic_img_size=True,
)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
loss_fn = nn.CrossEntropyLoss()

train_set = [(torch.randn(8, 3, 32, 32), torch.randint(0, 5, (8,))) for _ in range(3)]
# validation images come straight from the camera at a higher resolution
val_sets = {
    32: [(torch.randn(8, 3, 32, 32), torch.randint(0, 5, (8,)))],
    48: [(torch.randn(8, 3, 48, 48), torch.randint(0, 5, (8,)))],
    64: [(torch.randn(8, 3, 64, 64), torch.randint(0, 5, (8,)))],
}

for epoch in range(2):
    model.train()
    for x, y in train_set:
        loss = loss_fn(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} train loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    for res, batches in val_sets.items():
        correct = total = 0
        for x, y in batches:
            pred = compiled(x).argmax(-1)
            correct += (pred == y).sum().item()
            total += y.numel()
        print(f"val @{res}px acc {correct / total:.3f}")
