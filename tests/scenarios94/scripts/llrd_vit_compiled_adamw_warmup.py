"""Fine-tune a tiny timm ViT with layer-wise learning-rate decay.

The optimizer step is compiled; a linear warmup rescales every param group's
lr (each group already carries its layer-decay `lr_scale`).
"""
import torch
import torch.nn.functional as F
import timm
from timm.optim import param_groups_layer_decay

torch.manual_seed(0)

BASE_LR = 1e-3
LAYER_DECAY = 0.75
WARMUP_STEPS = 3
TOTAL_STEPS = 6

model = timm.create_model(
    "vit_tiny_patch16_224",
    pretrained=False,
    img_size=32,
    patch_size=8,
    embed_dim=32,
    depth=2,
    num_heads=2,
    num_classes=10,
)
groups = param_groups_layer_decay(model, weight_decay=0.05, layer_decay=LAYER_DECAY)
opt = torch.optim.AdamW(groups, lr=BASE_LR)
for g in opt.param_groups:
    g["lr"] = BASE_LR * g["lr_scale"]


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


def lr_at(step):
    if step < WARMUP_STEPS:
        return BASE_LR * (step + 1) / WARMUP_STEPS
    return BASE_LR


images = torch.randn(64, 3, 32, 32)
labels = torch.randint(0, 10, (64,))

for step in range(TOTAL_STEPS):
    lr = lr_at(step)
    for g in opt.param_groups:
        g["lr"] = lr * g["lr_scale"]
    idx = torch.randint(0, 64, (16,))
    logits = model(images[idx])
    loss = F.cross_entropy(logits, labels[idx])
    opt.zero_grad()
    loss.backward()
    opt_step()
    print(f"step {step} lr {lr:.2e} loss {loss.item():.4f}")
