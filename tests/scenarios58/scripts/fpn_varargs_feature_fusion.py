import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self, ch=8, max_levels=4):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 3, padding=1)
        self.stages = nn.ModuleList(
            [nn.Conv2d(ch, ch, 3, stride=2, padding=1) for _ in range(max_levels)]
        )
        self.active_levels = 2

    def forward(self, x):
        x = F.relu(self.stem(x))
        feats = []
        for stage in self.stages[: self.active_levels]:
            x = F.relu(stage(x))
            feats.append(x)
        return feats


class FusionHead(nn.Module):
    def __init__(self, ch=8, classes=5):
        super().__init__()
        self.proj = nn.Conv2d(ch, ch, 1)
        self.cls = nn.Linear(ch, classes)

    def forward(self, *feats):
        target = feats[0].shape[-2:]
        fused = 0
        for f in feats:
            fused = fused + F.interpolate(self.proj(f), size=target, mode="nearest")
        fused = fused / len(feats)
        return self.cls(fused.mean(dim=(2, 3)))


backbone = Backbone()
head = FusionHead()
fuse = torch.compile(head, backend="aot_eager")
opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)

# progressive growing: unlock one more backbone level per stage
for stage, levels in enumerate([2, 3, 4]):
    backbone.active_levels = levels
    for step in range(3):
        x = torch.randn(4, 3, 32, 32)
        y = torch.randint(0, 5, (4,))
        feats = backbone(x)
        logits = fuse(*feats)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} levels={levels} loss={loss.item():.4f}")
