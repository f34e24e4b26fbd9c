"""Training a tiny single-level detector on synthetic scenes.

Each image has a different number of ground-truth boxes; the target assigner
matches a fixed anchor grid to them with torchvision's box_iou and builds the
objectness and regression targets inside one compiled function.
"""

import torch
from torch import nn
from torchvision.ops import box_iou, box_convert

torch.manual_seed(0)

STRIDE = 8
IMG = 64


def make_anchors():
    centers = torch.arange(STRIDE // 2, IMG, STRIDE, dtype=torch.float32)
    cy, cx = torch.meshgrid(centers, centers, indexing="ij")
    sizes = torch.full_like(cx, 16.0)
    cxcywh = torch.stack([cx, cy, sizes, sizes], dim=-1).reshape(-1, 4)
    return box_convert(cxcywh, "cxcywh", "xyxy")


anchors = make_anchors()

head = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(32, 5, 3, stride=2, padding=1),  # objectness + 4 box deltas
)
opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)


@torch.compile(backend="aot_eager")
def assign_targets(anchors, gt_boxes):
    iou = box_iou(anchors, gt_boxes)            # (A, G)
    best_iou, best_gt = iou.max(dim=1)
    positive = best_iou > 0.4
    matched = gt_boxes[best_gt]
    deltas = (matched - anchors) / 16.0
    return positive.float(), deltas


def random_scene(num_objects):
    xy = torch.rand(num_objects, 2) * (IMG - 24)
    wh = 8 + torch.rand(num_objects, 2) * 16
    boxes = torch.cat([xy, xy + wh], dim=1)
    image = torch.randn(1, 3, IMG, IMG) * 0.1
    return image, boxes


# object counts per image as they come out of the synthetic data generator
object_counts = [3, 3, 5, 2, 7, 4, 1, 6]
for step, n in enumerate(object_counts):
    image, gt = random_scene(n)
    obj_t, delta_t = assign_targets(anchors, gt)
    out = head(image).permute(0, 2, 3, 1).reshape(-1, 5)
    obj_loss = nn.functional.binary_cross_entropy_with_logits(out[:, 0], obj_t)
    box_loss = ((out[:, 1:] - delta_t).abs().sum(dim=1) * obj_t).sum() / obj_t.sum().clamp(min=1)
    loss = obj_loss + box_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} objects {n} positives {int(obj_t.sum())} loss {loss.item():.4f}")
