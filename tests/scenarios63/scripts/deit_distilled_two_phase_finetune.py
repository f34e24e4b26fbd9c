import timm
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

student = timm.create_model(
    "deit_tiny_distilled_patch16_224", pretrained=False, img_size=32, patch_size=8,
    embed_dim=48, depth=2, num_heads=2, num_classes=10,
)
teacher = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                        nn.Flatten(), nn.Linear(16, 10)).eval()
opt = torch.optim.AdamW(student.parameters(), lr=5e-4)


@torch.compile(backend="aot_eager")
def forward_loss(images, labels):
    out = student(images)
    if isinstance(out, tuple):
        cls_logits, dist_logits = out
        with torch.no_grad():
            t = teacher(images).argmax(-1)
        return 0.5 * F.cross_entropy(cls_logits, labels) + 0.5 * F.cross_entropy(dist_logits, t)
    return F.cross_entropy(out, labels)


def run_epoch(epoch, distill):
    student.train()
    student.set_distilled_training(distill)
    for it in range(3):
        images = torch.randn(8, 3, 32, 32)
        labels = torch.randint(0, 10, (8,))
        loss = forward_loss(images, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} distill={distill} loss={loss.item():.4f}")


# warm up on labels only, then switch on the distillation token's loss
for epoch in range(4):
    run_epoch(epoch, distill=epoch >= 2)
