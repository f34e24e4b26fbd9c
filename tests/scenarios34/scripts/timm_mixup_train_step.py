"""Small image classifier trained with timm's Mixup/CutMix.

The augmentation is part of the compiled training step so the whole step is
one call from the loop.
"""

import torch
from torch import nn
from timm.data import Mixup
from timm.loss import SoftTargetCrossEntropy

torch.manual_seed(0)

NUM_CLASSES = 10

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1),
    nn.BatchNorm2d(32),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(32, NUM_CLASSES),
)

# mixup for most batches, cutmix some of the time, like the timm recipes
mixup_fn = Mixup(
    mixup_alpha=0.8,
    cutmix_alpha=1.0,
    prob=1.0,
    switch_prob=0.5,
    mode="batch",
    label_smoothing=0.1,
    num_classes=NUM_CLASSES,
)
criterion = SoftTargetCrossEntropy()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(images, labels):
    images, targets = mixup_fn(images, labels)
    logits = model(images)
    loss = criterion(logits, targets)
    loss.backward()
    return loss


for step in range(8):
    images = torch.randn(16, 3, 32, 32)
    labels = torch.randint(0, NUM_CLASSES, (16,))
    opt.zero_grad()
    loss = train_step(images, labels)
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
