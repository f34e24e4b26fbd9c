"""Train a tiny timm ViT with patch dropout (FLIP-style) whose keep ratio is
relaxed over the epochs."""
import timm
import torch
import torch.nn.functional as F

torch.manual_seed(0)

model = timm.create_model(
    "vit_tiny_patch16_224",
    pretrained=False,
    img_size=32,
    patch_size=8,
    embed_dim=64,
    depth=2,
    num_heads=2,
    num_classes=10,
    patch_drop_rate=0.5,
)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.05)

drop_schedule = [0.5, 0.5, 0.25, 0.0]
for epoch, rate in enumerate(drop_schedule):
    model.patch_drop.prob = rate
    model.train()
    for step in range(3):
        images = torch.randn(8, 3, 32, 32)
        labels = torch.randint(0, 10, (8,))
        loss = F.cross_entropy(compiled(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} patch_drop {rate} loss {loss.item():.4f}")
