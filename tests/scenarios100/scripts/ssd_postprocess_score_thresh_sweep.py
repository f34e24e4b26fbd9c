"""Evaluate a tiny SSD (torchvision SSDHead + DefaultBoxGenerator priors)
with a compiled post-processing step, sweeping the score threshold to pick
an operating point."""
import torch
import torch.nn as nn
from torchvision.models.detection.ssd import SSDHead
from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
from torchvision.models.detection.image_list import ImageList
from torchvision.ops import batched_nms

torch.manual_seed(0)

NUM_CLASSES = 4
backbone = nn.ModuleList([
    nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU()),
    nn.Sequential(nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU()),
])
head = SSDHead([16, 16], [4, 4], NUM_CLASSES)
priors_gen = DefaultBoxGenerator([[2], [2]])
backbone.eval(); head.eval()

images = torch.rand(4, 3, 64, 64)
feats = []
x = images
for stage in backbone:
    x = stage(x)
    feats.append(x)
priors = priors_gen(ImageList(images, [(64, 64)] * 4), feats)[0]


@torch.compile(backend="aot_eager")
def postprocess(feats, priors, score_thresh, top_k):
    out = head(feats)
    scores = out["cls_logits"].softmax(-1)[..., 1:]
    deltas = out["bbox_regression"]
    wh = priors[:, 2:] - priors[:, :2]
    ctr = priors[:, :2] + 0.5 * wh
    pc = ctr + deltas[..., :2] * 0.1 * wh
    pwh = wh * torch.exp(deltas[..., 2:] * 0.2)
    boxes = torch.cat([pc - 0.5 * pwh, pc + 0.5 * pwh], -1).clamp(0, 64)
    best, labels = scores.max(-1)
    best = torch.where(best > score_thresh, best, torch.zeros_like(best))
    top, idx = best.topk(top_k, dim=1)
    return top, torch.gather(labels, 1, idx), torch.gather(boxes, 1, idx.unsqueeze(-1).expand(-1, -1, 4))


with torch.no_grad():
    for thresh in [0.3, 0.3, 0.35, 0.4, 0.45]:
        top, labels, boxes = postprocess(feats, priors, thresh, 20)
        kept = 0
        for i in range(images.shape[0]):
            valid = top[i] > 0
            keep = batched_nms(boxes[i][valid], top[i][valid], labels[i][valid], 0.5)
            kept += keep.numel()
        print(f"score_thresh {thresh}: {kept} detections over {images.shape[0]} images")
