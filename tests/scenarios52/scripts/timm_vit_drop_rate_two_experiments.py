import torch
import torch.nn.functional as F
from timm.models.vision_transformer import VisionTransformer

torch.manual_seed(0)


def build(drop_rate):
    return VisionTransformer(
        img_size=32, patch_size=8, in_chans=3, num_classes=5,
        embed_dim=32, depth=2, num_heads=2, mlp_ratio=2.0,
        drop_rate=drop_rate,
    )


@torch.compile(backend="aot_eager")
def train_step(model, images, labels):
    logits = model(images)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    return loss.detach()


images = torch.randn(32, 3, 32, 32)
labels = torch.randint(0, 5, (32,))

experiments = {"baseline": 0.0, "dropout_0.3": 0.3}
for name, rate in experiments.items():
    torch.manual_seed(1)
    model = build(rate).train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(3):
        for i in range(0, 32, 16):
            opt.zero_grad()
            loss = train_step(model, images[i:i + 16], labels[i:i + 16])
            opt.step()
    print(name, "loss", round(loss.item(), 4))
