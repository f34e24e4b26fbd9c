import timm
import torch
import torch.nn.functional as F

torch.manual_seed(0)

model = timm.create_model(
    "vit_tiny_patch16_224", pretrained=False, img_size=32, patch_size=8,
    embed_dim=32, depth=3, num_heads=2, init_values=1e-5, num_classes=5,
)


def layer_id(name, depth):
    if name.startswith(("cls_token", "pos_embed", "patch_embed")):
        return 0
    if name.startswith("blocks."):
        return int(name.split(".")[1]) + 1
    return depth + 1


def build_param_groups(model, base_lr, decay, trainable_from):
    depth = len(model.blocks)
    groups = {}
    for name, p in model.named_parameters():
        lid = layer_id(name, depth)
        p.requires_grad_(lid >= trainable_from)
        if not p.requires_grad:
            continue
        scale = decay ** (depth + 1 - lid)
        wd = 0.0 if p.ndim == 1 or name.endswith(".gamma") else 0.05
        key = (lid, wd)
        if key not in groups:
            groups[key] = {"params": [], "lr": base_lr * scale, "weight_decay": wd}
        groups[key]["params"].append(p)
    return list(groups.values())


# stage: (first trainable layer id, base lr)
STAGES = [(4, 1e-3), (2, 5e-4), (0, 2e-4)]

for stage, (trainable_from, base_lr) in enumerate(STAGES):
    opt = torch.optim.AdamW(build_param_groups(model, base_lr, 0.75, trainable_from))

    @torch.compile(backend="aot_eager")
    def opt_step():
        opt.step()

    for it in range(3):
        x = torch.randn(4, 3, 32, 32)
        y = torch.randint(0, 5, (4,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt_step()
        print(f"stage {stage} it {it} loss {loss.item():.4f} groups {len(opt.param_groups)}")
