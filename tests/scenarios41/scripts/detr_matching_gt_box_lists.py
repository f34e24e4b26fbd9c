"""DETR-style matching cost between predicted queries and per-image ground truth."""
import torch
import torch.nn as nn
from torchvision.ops import box_convert, distance_box_iou

torch.manual_seed(0)

NUM_QUERIES = 12


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.boxes = nn.Linear(16 * 16, NUM_QUERIES * 4)

    def forward(self, images):
        out = self.boxes(self.backbone(images)).sigmoid()
        return out.view(images.shape[0], NUM_QUERIES, 4)  # cx, cy, w, h


@torch.compile(backend="aot_eager")
def matching_costs(pred_cxcywh, targets):
    costs = []
    for i, gt in enumerate(targets):
        pred = box_convert(pred_cxcywh[i], "cxcywh", "xyxy")
        gt_xyxy = box_convert(gt, "cxcywh", "xyxy")
        cost = 1.0 - distance_box_iou(pred, gt_xyxy)
        cost = cost + torch.cdist(pred_cxcywh[i], gt, p=1)
        costs.append(cost)
    return costs


def random_targets(counts):
    out = []
    for n in counts:
        cxcy = torch.rand(n, 2) * 0.6 + 0.2
        wh = torch.rand(n, 2) * 0.3 + 0.05
        out.append(torch.cat([cxcy, wh], dim=1))
    return out


model = BoxHead()
model.eval()
# number of annotated objects per image in each batch of the loader
loader_counts = [[3, 5], [3, 5], [2, 7], [4, 1], [6, 6], [3]]
with torch.no_grad():
    for step, counts in enumerate(loader_counts):
        images = torch.randn(len(counts), 3, 32, 32)
        targets = random_targets(counts)
        pred = model(images)
        costs = matching_costs(pred, targets)
        matched = [c.argmin(dim=0).tolist() for c in costs]
        print(f"batch {step} gt {counts} matched queries {matched}")
