"""Evaluate a tiny anchor-free detector and sweep the score threshold used by
the post-processing (score filter, small-box removal, class-aware NMS)."""

import torch
from torch import nn
from torchvision.ops import batched_nms, clip_boxes_to_image, remove_small_boxes

NUM_CLASSES = 4
IMG = 64


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.cls = nn.Conv2d(32, NUM_CLASSES, 1)
        self.box = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        f = self.body(x)
        return self.cls(f), self.box(f)


def decode(cls_map, box_map, stride=4):
    b, c, h, w = cls_map.shape
    ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    cx = (xs.flatten().float() + 0.5) * stride
    cy = (ys.flatten().float() + 0.5) * stride
    d = box_map.flatten(2).exp() * stride  # b, 4, hw
    boxes = torch.stack([cx - d[:, 0], cy - d[:, 1], cx + d[:, 2], cy + d[:, 3]], dim=-1)
    scores, labels = cls_map.flatten(2).sigmoid().max(dim=1)
    return boxes, scores, labels


def postprocess(model, images, score_thresh, iou_thresh=0.5):
    cls_map, box_map = model(images)
    boxes, scores, labels = decode(cls_map, box_map)
    results = []
    for i in range(images.shape[0]):
        keep = scores[i] > score_thresh
        bx, sc, lb = boxes[i][keep], scores[i][keep], labels[i][keep]
        bx = clip_boxes_to_image(bx, (IMG, IMG))
        small = remove_small_boxes(bx, 2.0)
        bx, sc, lb = bx[small], sc[small], lb[small]
        kept = batched_nms(bx, sc, lb, iou_thresh)[:20]
        results.append((bx[kept], sc[kept], lb[kept]))
    return results


def main():
    torch.manual_seed(0)
    model = TinyDetector().eval()
    compiled = torch.compile(postprocess, backend="aot_eager")
    g = torch.Generator().manual_seed(3)
    val = [torch.rand(2, 3, IMG, IMG, generator=g) for _ in range(3)]
    with torch.no_grad():
        for thresh in (0.5, 0.3, 0.6, 0.45):
            n = 0
            for images in val:
                for bx, sc, lb in compiled(model, images, thresh):
                    n += bx.shape[0]
            print(f"score>{thresh}: {n} detections kept")


if __name__ == "__main__":
    main()
