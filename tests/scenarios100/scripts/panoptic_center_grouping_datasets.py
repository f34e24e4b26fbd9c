"""Panoptic-DeepLab-style inference on two datasets with different label
sets: a tiny network predicts semantic logits, an instance-center heatmap
and center offsets; a compiled post-processing step finds centers with
max-pool NMS and builds the "thing" mask from the dataset's list of thing
class ids."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PanopticNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.semantic = nn.Conv2d(16, num_classes, 1)
        self.center = nn.Conv2d(16, 1, 1)
        self.offset = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        f = self.body(x)
        up = lambda t: F.interpolate(t, size=x.shape[-2:], mode="bilinear", align_corners=False)
        return up(self.semantic(f)), up(self.center(f)).sigmoid(), up(self.offset(f))


@torch.compile(backend="aot_eager")
def panoptic_post(sem_logits, center, offset, thing_ids, center_thresh, top_k):
    sem = sem_logits.argmax(1)
    thing_mask = torch.zeros_like(sem, dtype=torch.bool)
    for cid in thing_ids:
        thing_mask |= sem == cid
    pooled = F.max_pool2d(center, kernel_size=7, stride=1, padding=3)
    peaks = torch.where((center == pooled) & (center > center_thresh), center, torch.zeros_like(center))
    b, _, h, w = center.shape
    scores, idx = peaks.flatten(1).topk(top_k, dim=1)
    cy = torch.div(idx, w, rounding_mode="floor").float()
    cx = (idx % w).float()
    ys = torch.arange(h).view(1, h, 1).float() + offset[:, 0]
    xs = torch.arange(w).view(1, 1, w).float() + offset[:, 1]
    d = (ys.unsqueeze(1) - cy.view(b, -1, 1, 1)) ** 2 + (xs.unsqueeze(1) - cx.view(b, -1, 1, 1)) ** 2
    instance = (d.argmin(1) + 1) * thing_mask
    return sem, instance, scores


DATASETS = {
    "street": {"num_classes": 6, "thing_ids": [3, 4, 5]},
    "indoor": {"num_classes": 6, "thing_ids": [1, 2]},
}
nets = {name: PanopticNet(cfg["num_classes"]).eval() for name, cfg in DATASETS.items()}

with torch.no_grad():
    for rnd in range(2):
        for name, cfg in DATASETS.items():
            images = torch.rand(2, 3, 32, 32)
            sem_logits, center, offset = nets[name](images)
            sem, inst, scores = panoptic_post(sem_logits, center, offset, cfg["thing_ids"], 0.1, 8)
            n_inst = [int(inst[i].unique().numel()) - 1 for i in range(2)]
            print(f"round {rnd} {name}: instances per image {n_inst}, top score {scores.max().item():.3f}")
