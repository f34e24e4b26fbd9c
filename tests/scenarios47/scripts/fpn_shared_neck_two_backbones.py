from collections import OrderedDict

import torch
import torch.nn as nn
from torchvision.ops import FeaturePyramidNetwork

torch.manual_seed(0)


class TinyResNetStages(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())
        self.s3 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.s4 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.s5 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        c3 = self.s3(self.stem(x))
        c4 = self.s4(c3)
        c5 = self.s5(c4)
        return OrderedDict([("p3", c3), ("p4", c4), ("p5", c5)])


class TinyConvNeXtStages(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 4, stride=4)
        self.res3 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.GELU())
        self.res4 = nn.Sequential(nn.Conv2d(16, 32, 2, stride=2), nn.GELU())
        self.res5 = nn.Sequential(nn.Conv2d(32, 64, 2, stride=2), nn.GELU())

    def forward(self, x):
        r3 = self.res3(self.stem(x))
        r4 = self.res4(r3)
        r5 = self.res5(r4)
        return OrderedDict([("res3", r3), ("res4", r4), ("res5", r5)])


class DenseHead(nn.Module):
    def __init__(self, ch=32, num_classes=4):
        super().__init__()
        self.cls = nn.Conv2d(ch, num_classes, 3, padding=1)

    def forward(self, pyramid):
        return [self.cls(level).flatten(2).mean(-1) for level in pyramid.values()]


fpn = FeaturePyramidNetwork(in_channels_list=[16, 32, 64], out_channels=32).eval()
head = DenseHead().eval()
backbones = {"resnet": TinyResNetStages().eval(), "convnext": TinyConvNeXtStages().eval()}


def neck_and_head(features):
    pyramid = fpn(features)
    scores = head(pyramid)
    return torch.stack(scores, 0).mean(0)


compiled_neck = torch.compile(neck_and_head, backend="aot_eager")

# requests from clients that were set up with different backbones
requests = ["resnet", "resnet", "convnext", "resnet", "convnext", "convnext", "resnet"]
with torch.no_grad():
    for i, name in enumerate(requests):
        images = torch.randn(2, 3, 64, 64)
        feats = backbones[name](images)
        logits = compiled_neck(feats)
        print(f"request {i} backbone={name} top={logits.argmax(-1).tolist()}")
