import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES = 4


def conv_bn(cin, cout, k=3, stride=1, dilation=1):
    pad = dilation * (k // 2)
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride=stride, padding=pad, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class ASPP(nn.Module):
    def __init__(self, cin, cout, rates=(1, 2, 3)):
        super().__init__()
        self.branches = nn.ModuleList(
            [conv_bn(cin, cout, k=1)] + [conv_bn(cin, cout, dilation=r) for r in rates]
        )
        self.image_pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cin, cout, 1), nn.ReLU())
        self.project = conv_bn(cout * (len(rates) + 2), cout, k=1)

    def forward(self, x):
        feats = [b(x) for b in self.branches]
        pooled = self.image_pool(x)
        feats.append(F.interpolate(pooled, size=x.shape[-2:], mode="bilinear", align_corners=False))
        return self.project(torch.cat(feats, dim=1))


class DeepLabLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = conv_bn(3, 16, stride=2)
        self.stage2 = conv_bn(16, 24, stride=2)
        self.stage3 = conv_bn(24, 32, stride=2)
        self.stage4 = conv_bn(32, 48, stride=2)
        self.aspp = ASPP(48, 32)
        self.classifier = nn.Conv2d(32, NUM_CLASSES, 1)

    def set_output_stride(self, os):
        # trade the last downsampling for dilation (denser features at eval)
        conv = self.stage4[0]
        if os == 8:
            conv.stride, conv.dilation, conv.padding = (1, 1), (2, 2), (2, 2)
        else:
            conv.stride, conv.dilation, conv.padding = (2, 2), (1, 1), (1, 1)

    def forward(self, x):
        size = x.shape[-2:]
        f = self.stage4(self.stage3(self.stage2(self.stage1(x))))
        out = self.classifier(self.aspp(f))
        return F.interpolate(out, size=size, mode="bilinear", align_corners=False)


model = DeepLabLike()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)


def miou(logits, target):
    pred = logits.argmax(1)
    ious = []
    for c in range(NUM_CLASSES):
        inter = ((pred == c) & (target == c)).sum()
        union = ((pred == c) | (target == c)).sum()
        if union > 0:
            ious.append(inter.float() / union.float())
    return torch.stack(ious).mean().item()


val = [(torch.rand(2, 3, 64, 64), torch.randint(0, NUM_CLASSES, (2, 64, 64))) for _ in range(2)]

for epoch in range(3):
    model.train()
    for it in range(4):
        x = torch.rand(4, 3, 64, 64)
        y = torch.randint(0, NUM_CLASSES, (4, 64, 64))
        loss = F.cross_entropy(cmodel(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        scores = [miou(cmodel(x), y) for x, y in val]
    print(f"epoch {epoch} loss {loss.item():.3f} val mIoU {sum(scores) / len(scores):.3f}")

# final evaluation with denser features
model.eval()
model.set_output_stride(8)
with torch.no_grad():
    scores = [miou(cmodel(x), y) for x, y in val]
print(f"final val mIoU (output stride 8) {sum(scores) / len(scores):.3f}")
