"""Test-time augmentation for a small torchvision MobileNetV3 classifier.

Each validation batch is scored at its native size and at two larger scales,
with and without a horizontal flip; the softmax outputs are averaged.
"""
import torch
import torch.nn.functional as F
from torchvision.models import mobilenet_v3_small

torch.manual_seed(0)

model = mobilenet_v3_small(weights=None, width_mult=0.25, num_classes=10)
model.eval()
compiled = torch.compile(model, backend="aot_eager")

TTA_SCALES = (1.0, 1.25, 1.5)


@torch.no_grad()
def predict_tta(images):
    probs = 0.0
    h, w = images.shape[-2:]
    for s in TTA_SCALES:
        size = (int(round(h * s)), int(round(w * s)))
        x = images if s == 1.0 else F.interpolate(images, size=size, mode="bilinear", align_corners=False)
        for flip in (False, True):
            xi = torch.flip(x, dims=[-1]) if flip else x
            probs = probs + compiled(xi).softmax(-1)
    return probs / (2 * len(TTA_SCALES))


val_images = torch.randn(48, 3, 32, 32)
val_labels = torch.randint(0, 10, (48,))
correct = 0
for i in range(0, 48, 16):
    p = predict_tta(val_images[i:i + 16])
    correct += (p.argmax(-1) == val_labels[i:i + 16]).sum().item()
print(f"TTA accuracy {correct / 48:.3f}")
