"""Evaluate a tiny timm ViT with and without fused attention kernels."""
import torch
import torch.nn.functional as F
from timm.models.vision_transformer import VisionTransformer, Attention

torch.manual_seed(0)

model = VisionTransformer(
    img_size=32, patch_size=8, in_chans=3, num_classes=10,
    embed_dim=64, depth=2, num_heads=4, mlp_ratio=2.0,
)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, backend="aot_eager")

images = torch.randn(64, 3, 32, 32)
labels = torch.randint(0, 10, (64,))
val_images = torch.randn(32, 3, 32, 32)
val_labels = torch.randint(0, 10, (32,))


def set_fused(m, flag):
    for mod in m.modules():
        if isinstance(mod, Attention):
            mod.fused_attn = flag


def evaluate():
    model.eval()
    with torch.no_grad():
        logits = cmodel(val_images)
        acc = (logits.argmax(-1) == val_labels).float().mean().item()
    model.train()
    return acc


for epoch in range(2):
    for i in range(0, 64, 16):
        logits = cmodel(images[i:i + 16])
        loss = F.cross_entropy(logits, labels[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc_fused = evaluate()
    # ablation: reference attention path, then restore
    set_fused(model, False)
    acc_ref = evaluate()
    set_fused(model, True)
    print(f"epoch {epoch} loss {loss.item():.3f} acc fused {acc_fused:.3f} ref {acc_ref:.3f}")
