"""Train a tiny FCOS-style head on a two-level feature pyramid; from epoch 2 on
the detector switches to FCOS's "norm_reg_targets" option (box regression
scaled by each pyramid level's stride)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models.detection.fcos import FCOSHead

torch.manual_seed(0)

NUM_CLASSES = 5


class TinyPyramid(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.ReLU())
        self.c3 = nn.Sequential(nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())
        self.c4 = nn.Sequential(nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        p3 = self.c3(self.stem(x))
        p4 = self.c4(p3)
        return [p3, p4]


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = TinyPyramid()
        self.head = FCOSHead(32, num_anchors=1, num_classes=NUM_CLASSES, num_convs=1)
        self.strides = [4, 8]
        self.norm_reg_targets = False

    def forward(self, images):
        feats = self.backbone(images)
        cls = [self.head.classification_head.cls_logits(self.head.classification_head.conv(f)) for f in feats]
        reg_feats = [self.head.regression_head.conv(f) for f in feats]
        box = [F.relu(self.head.regression_head.bbox_reg(r)) for r in reg_feats]
        if self.norm_reg_targets:
            box = [b * s for b, s in zip(box, self.strides)]
        ctr = [self.head.regression_head.bbox_ctrness(r) for r in reg_feats]
        flat = lambda xs: torch.cat([x.flatten(2) for x in xs], dim=2).transpose(1, 2)
        return flat(cls), flat(box), flat(ctr)


model = Detector()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
compiled = torch.compile(model, backend="aot_eager")


def fake_targets(n_loc, batch):
    labels = torch.randint(0, NUM_CLASSES + 1, (batch, n_loc))
    cls_t = F.one_hot(labels, NUM_CLASSES + 1)[..., 1:].float()
    box_t = torch.rand(batch, n_loc, 4) * 8
    ctr_t = torch.rand(batch, n_loc, 1)
    return cls_t, box_t, ctr_t, labels > 0


for epoch in range(4):
    if epoch == 2:
        model.norm_reg_targets = True
    for step in range(3):
        images = torch.randn(4, 3, 32, 32)
        cls, box, ctr = compiled(images)
        cls_t, box_t, ctr_t, pos = fake_targets(cls.shape[1], 4)
        loss_cls = F.binary_cross_entropy_with_logits(cls, cls_t)
        loss_box = (F.l1_loss(box, box_t, reduction="none").sum(-1) * pos).sum() / pos.sum().clamp(min=1)
        loss_ctr = F.binary_cross_entropy_with_logits(ctr, ctr_t)
        loss = loss_cls + 0.1 * loss_box + loss_ctr
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} norm_reg_targets {model.norm_reg_targets}")
