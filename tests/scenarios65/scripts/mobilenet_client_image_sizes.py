"""Image tagging endpoint: torchvision MobileNetV3 for several client apps."""
import torch
from torchvision.models import mobilenet_v3_small
from torchvision.transforms.v2 import functional as TF

torch.manual_seed(0)

model = mobilenet_v3_small(num_classes=12).eval()
compiled = torch.compile(model, backend="aot_eager")

MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]

# Each client app uploads at its own resolution; we keep the aspect ratio.
CLIENTS = {
    "android": (96, 96),
    "ios": (128, 96),
    "web": (112, 144),
    "kiosk": (160, 160),
}

schedule = ["android", "android", "ios", "web", "android", "kiosk", "ios", "web"]


def preprocess(raw):
    img = TF.to_dtype(raw, torch.float32, scale=True)
    return TF.normalize(img, MEAN, STD)


with torch.no_grad():
    for step, client in enumerate(schedule):
        h, w = CLIENTS[client]
        raw = torch.randint(0, 256, (4, 3, h, w), dtype=torch.uint8)
        logits = compiled(preprocess(raw))
        top = logits.softmax(-1).topk(3, dim=-1).indices[0].tolist()
        print(f"step {step} {client:8s} {h}x{w}: top3 {top}")
