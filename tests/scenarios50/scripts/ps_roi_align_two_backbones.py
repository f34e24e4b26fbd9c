import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.ops import ps_roi_align

torch.manual_seed(0)

OUT = 3
N_CLS = 4


class Backbone(nn.Module):
    def __init__(self, stride):
        super().__init__()
        layers, ch = [], 3
        for _ in range({8: 3, 16: 4}[stride]):
            layers += [nn.Conv2d(ch, 16, 3, stride=2, padding=1), nn.ReLU()]
            ch = 16
        layers.append(nn.Conv2d(16, OUT * OUT * N_CLS, 1))
        self.body = nn.Sequential(*layers)
        self.stride = stride

    def forward(self, x):
        return self.body(x)


def rfcn_head(score_maps, boxes, spatial_scale, sampling_ratio):
    pooled = ps_roi_align(score_maps, boxes, output_size=OUT,
                          spatial_scale=spatial_scale, sampling_ratio=sampling_ratio)
    return pooled.mean(dim=(2, 3))


head = torch.compile(rfcn_head, backend="aot_eager")

BACKBONES = {
    "r_s8": dict(stride=8, sampling_ratio=2),
    "r_s16": dict(stride=16, sampling_ratio=1),
}


def random_rois(n_img=2, n_per=6, size=64):
    rois = []
    for b in range(n_img):
        xy = torch.rand(n_per, 2) * (size - 24)
        wh = 8 + torch.rand(n_per, 2) * 16
        rois.append(torch.cat([torch.full((n_per, 1), float(b)), xy, xy + wh], dim=1))
    return torch.cat(rois)


images = torch.randn(3, 2, 3, 64, 64)
rois = [random_rois() for _ in range(3)]
labels = torch.randint(0, N_CLS, (3, 12))

for name, cfg in BACKBONES.items():
    backbone = Backbone(cfg["stride"])
    opt = torch.optim.SGD(backbone.parameters(), lr=0.01)
    for epoch in range(2):
        total = 0.0
        for img, r, y in zip(images, rois, labels):
            maps = backbone(img)
            logits = head(maps, r, 1.0 / backbone.stride, cfg["sampling_ratio"])
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"{name} epoch {epoch} loss {total / len(images):.4f}")
