"""Serving a small single-stage detector (our own backbone + torchvision FPN).

Requests arrive with images of whatever size the client sends; each client
config also carries its own score threshold. The dense head is compiled;
decoding and NMS follow in the same compiled function.
"""

from collections import OrderedDict

import torch
from torch import nn
from torchvision.ops import FeaturePyramidNetwork, batched_nms

torch.manual_seed(0)
NUM_CLASSES = 4


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.c3 = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
        self.c4 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.c5 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU())
        self.fpn = FeaturePyramidNetwork([16, 32, 64], out_channels=32)
        self.cls = nn.Conv2d(32, NUM_CLASSES, 3, padding=1)
        self.box = nn.Conv2d(32, 4, 3, padding=1)

    def forward(self, images):
        f3 = self.c3(images)
        f4 = self.c4(f3)
        f5 = self.c5(f4)
        feats = self.fpn(OrderedDict([("p3", f3), ("p4", f4), ("p5", f5)]))
        scores, boxes = [], []
        for stride, f in zip((4, 8, 16), feats.values()):
            n, _, h, w = f.shape
            ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            centers = torch.stack([xs, ys, xs, ys], -1).reshape(1, -1, 4).float() * stride
            offsets = self.box(f).permute(0, 2, 3, 1).reshape(n, -1, 4).exp() * stride
            boxes.append(centers + offsets * torch.tensor([-1.0, -1.0, 1.0, 1.0]))
            scores.append(self.cls(f).sigmoid().permute(0, 2, 3, 1).reshape(n, -1, NUM_CLASSES))
        return torch.cat(scores, 1), torch.cat(boxes, 1)


model = Detector().eval()


@torch.compile(backend="aot_eager")
def detect(image, score_thresh, iou_thresh=0.5):
    scores, boxes = model(image[None])
    scores, labels = scores[0].max(-1)
    keep = scores > score_thresh
    boxes, scores, labels = boxes[0][keep], scores[keep], labels[keep]
    keep = batched_nms(boxes, scores, labels, iou_thresh)
    return boxes[keep], scores[keep], labels[keep]


# (client, image size, score threshold from that client's config)
requests = [
    ("warehouse-cam", (256, 256), 0.55),
    ("warehouse-cam", (256, 256), 0.55),
    ("dock-cam", (192, 320), 0.55),
    ("mobile-app", (320, 240), 0.6),
    ("warehouse-cam", (256, 256), 0.55),
    ("mobile-app", (288, 224), 0.6),
]

with torch.no_grad():
    for client, (h, w), thresh in requests:
        image = torch.rand(3, h, w)
        boxes, scores, labels = detect(image, thresh)
        print(f"{client} {h}x{w}: {boxes.shape[0]} detections")
