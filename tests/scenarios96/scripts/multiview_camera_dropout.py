"""Multi-view 3-D object classifier: each sample comes with a dict of camera
views; each camera is missing from a batch with probability 0.3 (sensor dropout), so the dict has fewer
entries."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

CAMERAS = ["front", "left", "right", "top"]


class ViewEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return x.mean(dim=(2, 3))


class MultiViewNet(nn.Module):
    def __init__(self, num_classes=6):
        super().__init__()
        self.encoder = ViewEncoder()
        self.cam_embed = nn.ParameterDict(
            {c: nn.Parameter(torch.zeros(32)) for c in CAMERAS})
        self.head = nn.Linear(32, num_classes)

    def forward(self, views):
        feats = [self.encoder(img) + self.cam_embed[name] for name, img in views.items()]
        fused = torch.stack(feats, dim=0).max(dim=0).values
        return self.head(fused)


model = MultiViewNet()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
cmodel = torch.compile(model, backend="aot_eager")


def load_batch(batch_size=8):
    present = [c for c in CAMERAS if random.random() > 0.3] or ["front"]
    views = {c: torch.rand(batch_size, 3, 24, 24) for c in present}
    return views, torch.randint(0, 6, (batch_size,))


for step in range(6):
    views, labels = load_batch()
    loss = F.cross_entropy(cmodel(views), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} cams {list(views)} loss {loss.item():.4f}")
