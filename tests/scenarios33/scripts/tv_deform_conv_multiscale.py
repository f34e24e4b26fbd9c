"""Small segmentation net with a deformable convolution in the decoder.

The decoder predicts sampling offsets with a plain conv and feeds them to
torchvision's deform_conv2d. Training uses multi-scale crops: every few
iterations the crop size is drawn again from a short list of sizes.
"""

import random

import torch
from torch import nn
from torchvision.ops import deform_conv2d

torch.manual_seed(0)
random.seed(0)


class DeformBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.offset = nn.Conv2d(ch, 2 * 3 * 3, 3, padding=1)
        nn.init.zeros_(self.offset.weight)
        nn.init.zeros_(self.offset.bias)
        self.weight = nn.Parameter(torch.randn(ch, ch, 3, 3) * 0.05)
        self.bias = nn.Parameter(torch.zeros(ch))

    def forward(self, x):
        off = self.offset(x)
        return torch.relu(deform_conv2d(x, off, self.weight, self.bias, padding=1))


class TinySeg(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.deform = DeformBlock(16)
        self.cls = nn.Conv2d(16, classes, 1)

    def forward(self, img):
        f = self.deform(self.stem(img))
        logits = self.cls(f)
        return nn.functional.interpolate(logits, size=img.shape[-2:], mode="bilinear")


model = TinySeg()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

crop_sizes = [64, 96, 128]
size = 64
for it in range(12):
    if it % 4 == 0 and it > 0:
        size = random.choice(crop_sizes)
    img = torch.randn(2, 3, size, size)
    mask = torch.randint(0, 4, (2, size, size))
    loss = nn.functional.cross_entropy(cmodel(img), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} crop {size} loss {loss.item():.4f}")
