"""Fine-tuning a small ConvNeXt on a synthetic 10-class image set.

The first epoch runs plainly; from the second epoch on the user turns on
timm's gradient checkpointing to fit a bigger effective model in memory
(here simulated on CPU with tiny images).
"""

import timm
import torch
from torch import nn

torch.manual_seed(0)

model = timm.create_model(
    "convnext_atto", pretrained=False, num_classes=10, drop_path_rate=0.0
)
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()

compiled = torch.compile(model, backend="aot_eager")

# a fixed synthetic dataset so that every step sees the same shapes
images = torch.randn(4, 8, 3, 64, 64)
labels = torch.randint(0, 10, (4, 8))

for epoch in range(3):
    if epoch == 1:
        # memory got tight when the real batch size went up
        model.set_grad_checkpointing(True)
    running = 0.0
    for i in range(images.shape[0]):
        logits = compiled(images[i])
        loss = loss_fn(logits, labels[i])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        running += loss.item()
    print(f"epoch {epoch} loss {running / images.shape[0]:.4f}")

n_params = sum(p.numel() for p in model.parameters())
print(f"trained {n_params / 1e6:.2f}M parameters")
