"""A small image service built on a ConvMixer backbone from timm.

Most requests ask for class scores, but the search feature asks the same
model for pooled embeddings so it can index them. Both go through one
compiled helper that runs the backbone and then the head, returning either
the logits or the pooled features.
"""

import torch
from timm.models.convmixer import ConvMixer

torch.manual_seed(0)

# tiny model built from arguments, nothing downloaded
model = ConvMixer(dim=32, depth=2, kernel_size=5, patch_size=4, num_classes=10)
model.eval()


@torch.compile(backend="aot_eager")
def run_model(images, want_embedding):
    feats = model.forward_features(images)
    return model.forward_head(feats, pre_logits=want_embedding)


# (kind, batch) requests as they came in from the queue
requests = [
    ("classify", 4),
    ("classify", 4),
    ("classify", 4),
    ("embed", 4),
    ("classify", 4),
    ("embed", 4),
    ("embed", 4),
    ("classify", 4),
]

index = []
with torch.no_grad():
    for i, (kind, bs) in enumerate(requests):
        images = torch.randn(bs, 3, 32, 32)
        out = run_model(images, kind == "embed")
        if kind == "embed":
            index.append(out)
            print(f"req {i}: indexed {out.shape[0]} embeddings of size {out.shape[1]}")
        else:
            top = out.softmax(-1).argmax(-1)
            print(f"req {i}: classes {top.tolist()}")

print("index size", sum(e.shape[0] for e in index))
