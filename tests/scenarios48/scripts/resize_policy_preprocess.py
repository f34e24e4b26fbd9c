import torch
import torch.nn.functional as F

torch.manual_seed(0)

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)

# per-source resize policies of the ingestion service
POLICIES = {
    "camera": {"mode": "bilinear", "antialias": True},
    "thumbnail": {"mode": "bilinear", "antialias": False},
    "scan": {"mode": "bicubic", "antialias": True},
}


def preprocess(images, policy):
    images = images.float() / 255.0
    images = F.interpolate(images, size=(24, 24), mode=policy["mode"],
                           align_corners=False, antialias=policy["antialias"])
    return (images - MEAN) / STD


compiled_preprocess = torch.compile(preprocess, backend="aot_eager")

incoming = ["camera", "camera", "thumbnail", "camera", "scan", "thumbnail", "camera"]
for i, source in enumerate(incoming):
    raw = torch.randint(0, 256, (4, 3, 48, 48), dtype=torch.uint8)
    batch = compiled_preprocess(raw, POLICIES[source])
    print(f"batch {i} from {source}: {tuple(batch.shape)} std {batch.std().item():.3f}")
