"""A CenterNet-style keypoint detector trained on random heatmaps; after the
first epochs the backbone's BatchNorm layers are frozen with torchvision's
FrozenBatchNorm2d, as detection fine-tuning recipes do."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.ops import FrozenBatchNorm2d, sigmoid_focal_loss

torch.manual_seed(0)
NUM_CLASSES = 3


def block(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class CenterNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(block(3, 16, 2), block(16, 32, 2), block(32, 32, 1))
        self.heatmap = nn.Conv2d(32, NUM_CLASSES, 1)
        self.size = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        f = self.backbone(x)
        return self.heatmap(f), self.size(f)


def freeze_bn(module):
    for name, child in module.named_children():
        if isinstance(child, nn.BatchNorm2d):
            frozen = FrozenBatchNorm2d(child.num_features)
            frozen.weight.copy_(child.weight.detach())
            frozen.bias.copy_(child.bias.detach())
            frozen.running_mean.copy_(child.running_mean)
            frozen.running_var.copy_(child.running_var)
            setattr(module, name, frozen)
        else:
            freeze_bn(child)


model = CenterNet()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(4):
    if epoch == 2:
        freeze_bn(model.backbone)
    model.train()
    for step in range(3):
        images = torch.randn(4, 3, 64, 64)
        target_hm = (torch.rand(4, NUM_CLASSES, 16, 16) > 0.97).float()
        target_wh = torch.rand(4, 2, 16, 16)
        hm, wh = compiled(images)
        loss = sigmoid_focal_loss(hm, target_hm, reduction="mean")
        loss = loss + 0.1 * (F.l1_loss(wh, target_wh, reduction="none") * target_hm.amax(1, keepdim=True)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
