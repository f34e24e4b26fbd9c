"""Train a tiny torchvision ViT on synthetic 32x32 images.

The dataset size does not divide by the batch size and we keep the last
batch (drop_last=False) so every sample is seen each epoch.
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torchvision.models import VisionTransformer

torch.manual_seed(0)

vit = VisionTransformer(
    image_size=32,
    patch_size=8,
    num_layers=2,
    num_heads=2,
    hidden_dim=48,
    mlp_dim=96,
    num_classes=5,
)
model = torch.compile(vit, backend="aot_eager")

images = torch.randn(150, 3, 32, 32)
labels = torch.randint(0, 5, (150,))
loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)

opt = torch.optim.AdamW(vit.parameters(), lr=3e-4, weight_decay=0.05)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2 * len(loader))

for epoch in range(2):
    vit.train()
    seen, correct = 0, 0
    for x, y in loader:
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        seen += y.numel()
        correct += (logits.argmax(1) == y).sum().item()
    print(f"epoch {epoch} train acc {correct / seen:.3f} lr {sched.get_last_lr()[0]:.2e}")
