"""Fine-tune a small segmentation net with torchvision's LRASPPHead: the
encoder is trained for two epochs and then frozen (requires_grad_(False))
while the head keeps training."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models.segmentation.lraspp import LRASPPHead

torch.manual_seed(0)

NUM_CLASSES = 3


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.low = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.high = nn.Sequential(nn.Conv2d(8, 24, 3, stride=4, padding=1), nn.BatchNorm2d(24), nn.ReLU())

    def forward(self, x):
        low = self.low(x)
        return {"low": low, "high": self.high(low)}


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.head = LRASPPHead(8, 24, NUM_CLASSES, 16)

    def forward(self, x):
        feats = self.encoder(x)
        out = self.head(feats)
        return F.interpolate(out, size=x.shape[-2:], mode="bilinear", align_corners=False)


model = Segmenter()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

for epoch in range(4):
    if epoch == 2:
        model.encoder.requires_grad_(False)
        model.encoder.eval()
    for step in range(3):
        images = torch.randn(4, 3, 32, 32)
        masks = torch.randint(0, NUM_CLASSES, (4, 32, 32))
        logits = compiled(images)
        loss = F.cross_entropy(logits, masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        miou_num = (logits.argmax(1) == masks).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} pixel acc {miou_num.item():.3f}")
