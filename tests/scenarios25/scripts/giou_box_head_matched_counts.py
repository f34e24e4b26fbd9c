"""Training the box branch of a toy detector with GIoU loss.

Each image has a different number of ground-truth objects; predictions for
matched anchors are regressed with torchvision's generalized_box_iou_loss.
"""

import torch
from torch import nn
from torchvision.ops import box_convert, generalized_box_iou_loss

torch.manual_seed(0)


class BoxHead(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, feats):
        # predict (cx, cy, w, h) in [0, 1], convert to xyxy
        cxcywh = torch.sigmoid(self.mlp(feats))
        return box_convert(cxcywh, "cxcywh", "xyxy")


head = BoxHead()
opt = torch.optim.Adam(head.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def box_loss(feats, gt_boxes):
    pred = head(feats)
    return generalized_box_iou_loss(pred, gt_boxes, reduction="mean")


def random_gt(n):
    xy = torch.rand(n, 2) * 0.6
    wh = torch.rand(n, 2) * 0.3 + 0.05
    return torch.cat([xy, xy + wh], dim=1)


# number of objects in each training image
objects_per_image = [3, 3, 7, 2, 11, 5, 3]
for step, n in enumerate(objects_per_image):
    feats = torch.randn(n, 32)  # features of the anchors matched to the n objects
    loss = box_loss(feats, random_gt(n))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"image {step} objects {n} giou loss {loss.item():.3f}")
