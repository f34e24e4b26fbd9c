"""Detection-style training: a timm ResNet as a multi-scale feature extractor.

The backbone is built with features_only=True and returns the stages picked
by out_indices; a small FPN-ish neck fuses them and a per-location head
predicts objectness. Images come from a multi-scale augmentation, so each
batch is resized to one of a few training resolutions.
"""

import random

import timm
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
random.seed(0)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        # tiny resnet, random init, no pretrained download
        self.backbone = timm.create_model(
            "resnet10t", pretrained=False, features_only=True, out_indices=(2, 3, 4)
        )
        chans = self.backbone.feature_info.channels()
        self.lateral = nn.ModuleList([nn.Conv2d(c, 32, 1) for c in chans])
        self.head = nn.Conv2d(32, 1, 3, padding=1)

    def forward(self, images):
        feats = self.backbone(images)
        # top-down: upsample the coarser map and add it to the finer one
        out = self.lateral[-1](feats[-1])
        for lat, f in zip(reversed(self.lateral[:-1]), reversed(feats[:-1])):
            out = lat(f) + F.interpolate(out, size=f.shape[-2:], mode="nearest")
        return self.head(out)


model = Detector()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

train_sizes = [128, 160, 192]
for step in range(6):
    size = train_sizes[0] if step < 2 else random.choice(train_sizes)
    images = torch.randn(4, 3, size, size)
    logits = step_fn(images)
    target = (torch.rand_like(logits) > 0.9).float()
    loss = F.binary_cross_entropy_with_logits(logits, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} size {size} loss {loss.item():.4f}")
