"""Spatial pyramid pooling classifier fed images from several cameras.

The dataset mixes three camera models with different sensor resolutions, so
images are not resized: a spatial pyramid pooling layer turns any feature map
into a fixed-length vector (1x1, 2x2 and 4x4 grids of max-pooled bins), with
the pooling window worked out from the feature-map size as in SPP-net.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

LEVELS = (1, 2, 4)


class SPPNet(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(32 * sum(n * n for n in LEVELS), n_classes)

    def spp(self, fmap):
        h, w = fmap.shape[-2:]
        pooled = []
        for n in LEVELS:
            kh, kw = math.ceil(h / n), math.ceil(w / n)
            sh, sw = math.floor(h / n), math.floor(w / n)
            pooled.append(F.max_pool2d(fmap, (kh, kw), (sh, sw)).flatten(1))
        return torch.cat(pooled, dim=1)

    def forward(self, img):
        return self.fc(self.spp(self.conv(img)))


model = torch.compile(SPPNet(), backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

# batches come grouped by camera (same resolution inside a batch)
cameras = {"cam_a": (64, 64), "cam_b": (96, 128), "cam_c": (80, 112)}
schedule = ["cam_a", "cam_a", "cam_b", "cam_a", "cam_c", "cam_b", "cam_c", "cam_a"]

for step, cam in enumerate(schedule):
    h, w = cameras[cam]
    img = torch.randn(8, 3, h, w)
    label = torch.randint(0, 6, (8,))
    opt.zero_grad()
    loss = F.cross_entropy(model(img), label)
    loss.backward()
    opt.step()
    print(f"step {step} {cam} {h}x{w} loss {loss.item():.4f}")
