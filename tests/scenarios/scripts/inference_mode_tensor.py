import torch
from torch import nn

torch.manual_seed(0)

backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
head = nn.Linear(64, 4)
compiled_head = torch.compile(head, backend="aot_eager")

# validation pass: no_grad
with torch.no_grad():
    feats = backbone(torch.randn(8, 32))
    print("val", compiled_head(feats).argmax(-1).tolist())

# serving path: everything under inference_mode
with torch.inference_mode():
    feats = backbone(torch.randn(8, 32))
    print("serve", compiled_head(feats).argmax(-1).tolist())

# features cached under inference_mode, scored later under no_grad
with torch.inference_mode():
    cached = backbone(torch.randn(8, 32))
with torch.no_grad():
    print("cached", compiled_head(cached).argmax(-1).tolist())
    print("cached again", compiled_head(cached * 2).argmax(-1).tolist())
