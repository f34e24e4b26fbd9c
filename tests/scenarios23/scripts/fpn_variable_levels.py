"""Detection head on top of a frozen backbone's pyramid features.

The backbone returns a tuple of feature maps; for the small-image
dataloader we skip the coarsest level, so the head sees 4 levels on large
images and 3 on small ones.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

C = 16


class PyramidHead(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.smooth = nn.Conv2d(C, C, 3, padding=1)
        self.cls = nn.Conv2d(C, num_classes, 1)

    def forward(self, feats):
        # top-down merge: upsample coarser level and add
        out = feats[-1]
        for f in reversed(feats[:-1]):
            out = F.interpolate(out, size=f.shape[-2:], mode="nearest") + f
        out = F.relu(self.smooth(out))
        return self.cls(out)


def backbone_features(img, levels):
    feats = []
    x = img
    for _ in range(levels):
        x = F.avg_pool2d(x, 2)
        feats.append(x)
    return tuple(feats)


head = PyramidHead()
compiled_head = torch.compile(head, backend="aot_eager")
opt = torch.optim.Adam(head.parameters(), lr=1e-3)
stem = nn.Conv2d(3, C, 3, padding=1).requires_grad_(False)

for epoch in range(2):
    for it in range(3):
        large = it % 2 == 0
        img = torch.randn(2, 3, 64, 64)
        with torch.no_grad():
            x = stem(img)
        feats = backbone_features(x, levels=4 if large else 3)
        logits = compiled_head(feats)
        target = torch.randint(0, 5, logits.shape[:1] + logits.shape[2:])
        loss = F.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
