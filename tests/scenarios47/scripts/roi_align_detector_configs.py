import torch
import torch.nn as nn
from torchvision.ops import roi_align

torch.manual_seed(0)


class BoxHead(nn.Module):
    def __init__(self, in_ch=32, pool=7, num_classes=5):
        super().__init__()
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(in_ch * pool * pool, 64), nn.ReLU())
        self.cls = nn.Linear(64, num_classes)
        self.reg = nn.Linear(64, 4)

    def forward(self, pooled):
        h = self.fc(pooled)
        return self.cls(h), self.reg(h)


backbone = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
).eval()
head = BoxHead().eval()


def detect(images, rois, sampling_ratio, aligned):
    feats = backbone(images)
    pooled = roi_align(feats, rois, output_size=(7, 7), spatial_scale=0.25,
                       sampling_ratio=sampling_ratio, aligned=aligned)
    scores, deltas = head(pooled)
    return scores.softmax(-1), deltas


detect_c = torch.compile(detect, backend="aot_eager")

# configs exported from different training recipes
DETECTOR_CONFIGS = [
    {"name": "faster_rcnn_legacy", "sampling_ratio": 2, "aligned": False},
    {"name": "mask_rcnn_v2", "sampling_ratio": 0, "aligned": True},
    {"name": "cascade", "sampling_ratio": 2, "aligned": True},
]


def random_rois(n, size, g):
    xy = torch.rand(n, 2, generator=g) * (size - 16)
    wh = torch.rand(n, 2, generator=g) * 12 + 4
    idx = torch.randint(0, 2, (n, 1), generator=g).float()
    return torch.cat([idx, xy, xy + wh], 1)


g = torch.Generator().manual_seed(3)
with torch.no_grad():
    for cfg in DETECTOR_CONFIGS:
        for batch in range(3):
            images = torch.randn(2, 3, 64, 64, generator=g)
            rois = random_rois(16, 64, g)
            scores, deltas = detect_c(images, rois, cfg["sampling_ratio"], cfg["aligned"])
            print(f"{cfg['name']} batch {batch} max_score={scores.max().item():.3f}")
