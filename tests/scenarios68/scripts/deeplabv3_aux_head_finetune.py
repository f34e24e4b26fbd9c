"""Semantic segmentation with torchvision's DeepLabV3 on a small custom
backbone; the auxiliary FCN head is dropped once the warm-up is over."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models._utils import IntermediateLayerGetter
from torchvision.models.segmentation.deeplabv3 import DeepLabHead, DeepLabV3
from torchvision.models.segmentation.fcn import FCNHead

torch.manual_seed(0)
NUM_CLASSES = 4


def conv_bn(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 16, 2)
        self.stage1 = conv_bn(16, 32, 2)
        self.stage2 = conv_bn(32, 48, 2)
        self.stage3 = conv_bn(48, 64, 1)

    def forward(self, x):
        return self.stage3(self.stage2(self.stage1(self.stem(x))))


backbone = IntermediateLayerGetter(TinyBackbone(), return_layers={"stage3": "out", "stage2": "aux"})
model = DeepLabV3(backbone, DeepLabHead(64, NUM_CLASSES), FCNHead(48, NUM_CLASSES))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

WARMUP_EPOCHS = 2
for epoch in range(4):
    if epoch == WARMUP_EPOCHS:
        # the auxiliary loss only helps early on
        model.aux_classifier = None
    model.train()
    for step in range(3):
        images = torch.randn(2, 3, 64, 64)
        masks = torch.randint(0, NUM_CLASSES, (2, 64, 64))
        out = compiled(images)
        loss = F.cross_entropy(out["out"], masks)
        if "aux" in out:
            loss = loss + 0.4 * F.cross_entropy(out["aux"], masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
