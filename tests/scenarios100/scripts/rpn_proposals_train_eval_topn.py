"""Train a tiny RPN (torchvision RPNHead) and generate proposals with a
compiled proposal function: top-N before NMS is 60 while training and 30 at
evaluation, which runs under torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models.detection.rpn import RPNHead
from torchvision.ops import nms

torch.manual_seed(0)

A = 3  # anchors per location
backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU())
head = RPNHead(16, A)
params = list(backbone.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=1e-3)


def make_anchors(h, w, stride=4, sizes=(8.0, 16.0, 24.0)):
    ys, xs = torch.meshgrid(torch.arange(h) * stride + stride / 2, torch.arange(w) * stride + stride / 2, indexing="ij")
    centers = torch.stack([xs, ys], -1).reshape(-1, 1, 2)
    half = torch.tensor(sizes).reshape(1, -1, 1) / 2
    return torch.cat([centers - half, centers + half], -1).reshape(-1, 4)


@torch.compile(backend="aot_eager")
def propose(images, anchors, pre_nms_top_n):
    feat = backbone(images)
    logits, deltas = head([feat])
    b = images.shape[0]
    obj = logits[0].permute(0, 2, 3, 1).reshape(b, -1)
    deltas = deltas[0].view(b, A, 4, feat.shape[2], feat.shape[3]).permute(0, 3, 4, 1, 2).reshape(b, -1, 4)
    wh = anchors[:, 2:] - anchors[:, :2]
    ctr = anchors[:, :2] + 0.5 * wh
    pred_ctr = ctr + deltas[..., :2] * wh
    pred_wh = wh * torch.exp(deltas[..., 2:].clamp(max=4.0))
    boxes = torch.cat([pred_ctr - 0.5 * pred_wh, pred_ctr + 0.5 * pred_wh], -1)
    top_obj, idx = obj.topk(pre_nms_top_n, dim=1)
    top_boxes = torch.gather(boxes, 1, idx.unsqueeze(-1).expand(-1, -1, 4))
    return obj, top_obj, top_boxes.clamp(0, images.shape[-1])


anchors = make_anchors(12, 12)
for epoch in range(3):
    backbone.train(); head.train()
    for step in range(3):
        images = torch.randn(2, 3, 48, 48)
        obj, top_obj, top_boxes = propose(images, anchors, 60)
        labels = (torch.rand_like(obj) > 0.8).float()
        loss = F.binary_cross_entropy_with_logits(obj, labels) + 0.01 * top_boxes.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    backbone.eval(); head.eval()
    with torch.no_grad():
        images = torch.randn(2, 3, 48, 48)
        _, top_obj, top_boxes = propose(images, anchors, 30)
        kept = [nms(top_boxes[i], top_obj[i].sigmoid(), 0.7).numel() for i in range(2)]
    print(f"epoch {epoch} loss {loss.item():.4f} proposals after nms {kept}")
