"""Train a tiny timm ViT on random 32x32 images with a stochastic-depth ramp.

Stochastic depth hurts early training, so the user starts it low and raises
the drop-path probability of every block at the start of each epoch, the way
some training recipes do, by writing the rate into timm's DropPath modules.
"""

import timm
import torch
import torch.nn.functional as F
from timm.layers import DropPath

torch.manual_seed(0)

model = timm.create_model(
    "vit_tiny_patch16_224",
    pretrained=False,
    img_size=32,
    patch_size=8,
    embed_dim=48,
    depth=2,
    num_heads=3,
    num_classes=10,
    drop_path_rate=0.05,
)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)

images = torch.randn(64, 3, 32, 32)
labels = torch.randint(0, 10, (64,))

# linear ramp of the final drop-path rate over the epochs
ramp = [0.05, 0.1, 0.15, 0.2]


def set_drop_path(net, rate):
    blocks = [m for m in net.modules() if isinstance(m, DropPath)]
    for i, m in enumerate(blocks):
        # deeper blocks drop more, as in the usual schedule
        m.drop_prob = rate * (i + 1) / len(blocks)


for epoch, rate in enumerate(ramp):
    set_drop_path(model, rate)
    total = 0.0
    for i in range(0, 64, 16):
        x, y = images[i : i + 16], labels[i : i + 16]
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} drop_path {rate:.2f} loss {total / 4:.4f}")
