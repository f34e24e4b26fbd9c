"""Train a tiny timm ConvNeXt with mixup/cutmix for the first epochs, then
plain labels with timm's LabelSmoothingCrossEntropy for the last ones.

The compiled train step takes the criterion as an argument.
"""
import torch
import timm
from timm.data import Mixup
from timm.loss import LabelSmoothingCrossEntropy, SoftTargetCrossEntropy

torch.manual_seed(0)

NUM_CLASSES = 10
EPOCHS = 4
MIXUP_OFF_EPOCH = 2

model = timm.create_model(
    "convnext_atto", pretrained=False, num_classes=NUM_CLASSES,
    dims=(16, 32, 48, 64), depths=(1, 1, 1, 1),
)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
mixup_fn = Mixup(mixup_alpha=0.8, cutmix_alpha=1.0, label_smoothing=0.1, num_classes=NUM_CLASSES)
soft_ce = SoftTargetCrossEntropy()
smooth_ce = LabelSmoothingCrossEntropy(smoothing=0.1)


@torch.compile(backend="aot_eager")
def train_step(x, target, criterion):
    out = model(x)
    return criterion(out, target)


images = torch.randn(64, 3, 32, 32)
labels = torch.randint(0, NUM_CLASSES, (64,))

for epoch in range(EPOCHS):
    model.train()
    use_mixup = epoch < MIXUP_OFF_EPOCH
    for i in range(0, 64, 16):
        x, y = images[i:i + 16], labels[i:i + 16]
        if use_mixup:
            x, y = mixup_fn(x, y)
            criterion = soft_ce
        else:
            criterion = smooth_ce
        loss = train_step(x, y, criterion)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} mixup={use_mixup} loss {loss.item():.4f}")
