import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.ops import masks_to_boxes

torch.manual_seed(0)

IMG = 64
MAX_INST = 4


class InstanceHead(nn.Module):
    """Predicts a fixed set of instance masks and boxes from a small backbone."""

    def __init__(self, queries=MAX_INST):
        super().__init__()
        self.queries = queries
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.mask_logits = nn.Conv2d(16, queries, 1)
        self.box_head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, queries * 4))

    def forward(self, x):
        f = self.backbone(x)
        masks = F.interpolate(self.mask_logits(f), size=x.shape[-2:], mode="bilinear", align_corners=False)
        boxes = torch.sigmoid(self.box_head(f)).view(x.shape[0], self.queries, 4) * x.shape[-1]
        # (x1, y1, w, h) -> (x1, y1, x2, y2)
        boxes = torch.cat([boxes[..., :2], boxes[..., :2] + boxes[..., 2:]], dim=-1)
        return masks, boxes


def dice_loss(logits, target):
    p = logits.sigmoid().flatten(1)
    t = target.flatten(1)
    return 1 - ((2 * (p * t).sum(1) + 1) / (p.sum(1) + t.sum(1) + 1)).mean()


model = InstanceHead()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def compute_loss(images, targets):
    pred_masks, pred_boxes = model(images)
    total = images.new_zeros(())
    for i, t in enumerate(targets):
        n = t["masks"].shape[0]
        gt_boxes = masks_to_boxes(t["masks"])
        total = total + dice_loss(pred_masks[i, :n], t["masks"].float())
        total = total + F.smooth_l1_loss(pred_boxes[i, :n] / IMG, gt_boxes / IMG, beta=0.05)
    return total / len(targets)


def random_instances(n):
    masks = torch.zeros(n, IMG, IMG, dtype=torch.bool)
    for k in range(n):
        x0, y0 = torch.randint(0, IMG - 20, (2,)).tolist()
        w, h = torch.randint(8, 20, (2,)).tolist()
        masks[k, y0:y0 + h, x0:x0 + w] = True
    return masks


# a toy dataset: each image has 1..MAX_INST instances
dataset = []
for i in range(14):
    n = int(torch.randint(1, MAX_INST + 1, (1,)))
    dataset.append((torch.rand(3, IMG, IMG), {"masks": random_instances(n), "labels": torch.ones(n, dtype=torch.long)}))

batch_size = 4
for epoch in range(2):
    for start in range(0, len(dataset), batch_size):
        chunk = dataset[start:start + batch_size]
        images = torch.stack([img for img, _ in chunk])
        targets = [t for _, t in chunk]
        loss = compute_loss(images, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
