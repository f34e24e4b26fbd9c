import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_CLASSES = 6


class ConvBNReLU(nn.Sequential):
    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__(
            nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation,
                      bias=False, padding_mode="reflect"),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )


class SmallSegNet(nn.Module):
    def __init__(self, num_classes=NUM_CLASSES):
        super().__init__()
        self.stem = nn.Sequential(ConvBNReLU(3, 16, stride=2), ConvBNReLU(16, 32, stride=2))
        self.context = nn.ModuleList([ConvBNReLU(32, 16, dilation=d) for d in (1, 2, 4)])
        self.fuse = ConvBNReLU(48, 32)
        self.classifier = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        f = self.stem(x)
        f = self.fuse(torch.cat([m(f) for m in self.context], dim=1))
        return self.classifier(f)


model = SmallSegNet()
# quick fit on random labels so BN statistics are not the defaults
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for _ in range(3):
    x = torch.rand(4, 3, 64, 64)
    y = torch.randint(0, NUM_CLASSES, (4, 64, 64))
    logits = F.interpolate(model(x), size=y.shape[-2:], mode="bilinear", align_corners=False)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()


@torch.compile(backend="aot_eager")
def predict_probs(net, image, scale, flip_dims):
    h, w = image.shape[-2:]
    x = image
    if scale != 1.0:
        x = F.interpolate(x, scale_factor=scale, mode="bilinear", align_corners=False,
                          recompute_scale_factor=True)
    if flip_dims is not None:
        x = torch.flip(x, flip_dims)
    logits = net(x)
    if flip_dims is not None:
        logits = torch.flip(logits, flip_dims)
    logits = F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)
    return logits.softmax(dim=1)


TTA = [(1.0, None), (1.0, (3,)), (0.75, None), (1.25, None), (1.25, (3,))]

val_images = [torch.rand(1, 3, 96, 128) for _ in range(3)]
confusion = torch.zeros(NUM_CLASSES, NUM_CLASSES, dtype=torch.long)
with torch.no_grad():
    for i, image in enumerate(val_images):
        probs = torch.zeros(1, NUM_CLASSES, 96, 128)
        for scale, flip in TTA:
            probs += predict_probs(model, image, scale, flip)
        pred = probs.argmax(dim=1)
        target = torch.randint(0, NUM_CLASSES, pred.shape)
        confusion += torch.bincount(target.flatten() * NUM_CLASSES + pred.flatten(),
                                    minlength=NUM_CLASSES ** 2).view(NUM_CLASSES, NUM_CLASSES)
        print(f"image {i}: mean max prob {probs.max(dim=1).values.mean().item() / len(TTA):.3f}")

iou = confusion.diag() / (confusion.sum(0) + confusion.sum(1) - confusion.diag()).clamp(min=1)
print("mIoU", iou.float().mean().item())
