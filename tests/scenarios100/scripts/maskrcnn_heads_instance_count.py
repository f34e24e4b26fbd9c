"""Train the mask branch of a Mask R-CNN (torchvision MaskRCNNHeads +
MaskRCNNPredictor) on roi_align crops of ground-truth instances; each batch of
images holds a different number of instances."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models.detection.mask_rcnn import MaskRCNNHeads, MaskRCNNPredictor
from torchvision.ops import roi_align

torch.manual_seed(0)

NUM_CLASSES = 4
backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU())
mask_head = MaskRCNNHeads(16, [16, 16], 1)
predictor = MaskRCNNPredictor(16, 16, NUM_CLASSES)
modules = nn.ModuleList([backbone, mask_head, predictor])
opt = torch.optim.SGD(modules.parameters(), lr=0.02, momentum=0.9)


@torch.compile(backend="aot_eager")
def mask_loss(images, rois, labels, gt_masks):
    feats = backbone(images)
    crops = roi_align(feats, rois, output_size=(7, 7), spatial_scale=0.25, sampling_ratio=2, aligned=True)
    logits = predictor(mask_head(crops))
    idx = torch.arange(labels.shape[0])
    per_instance = logits[idx, labels]
    inter = (per_instance.sigmoid() * gt_masks).sum((1, 2))
    dice = 1 - (2 * inter + 1) / (per_instance.sigmoid().sum((1, 2)) + gt_masks.sum((1, 2)) + 1)
    return F.binary_cross_entropy_with_logits(per_instance, gt_masks) + dice.mean()


def random_instances(batch, img_size=64):
    rois, labels = [], []
    counts = torch.randint(1, 5, (batch,))
    for b, n in enumerate(counts.tolist()):
        xy = torch.rand(n, 2) * (img_size - 20)
        wh = torch.rand(n, 2) * 16 + 4
        rois.append(torch.cat([torch.full((n, 1), float(b)), xy, xy + wh], 1))
        labels.append(torch.randint(1, NUM_CLASSES, (n,)))
    rois = torch.cat(rois)
    return rois, torch.cat(labels), (torch.rand(rois.shape[0], 14, 14) > 0.5).float()


for step in range(6):
    images = torch.randn(2, 3, 64, 64)
    rois, labels, gt_masks = random_instances(2)
    loss = mask_loss(images, rois, labels, gt_masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} instances {rois.shape[0]} loss {loss.item():.4f}")
