import torch
import torchvision

torch.manual_seed(0)

model = torchvision.models.mobilenet_v3_small(num_classes=10).eval()
compiled = torch.compile(model, backend="aot_eager")

# progressive-resolution evaluation: the same model at three input sizes
with torch.no_grad():
    for resolution in [64, 64, 96, 128, 96, 160]:
        images = torch.randn(2, 3, resolution, resolution)
        logits = compiled(images)
        print(f"resolution {resolution} pred {logits.argmax(-1).tolist()}")
