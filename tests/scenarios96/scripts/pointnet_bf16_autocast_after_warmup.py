"""PointNet point-cloud classifier: first epoch in float32, then mixed
precision with CPU bfloat16 autocast for the rest of training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PointNet(nn.Module):
    def __init__(self, num_classes=8):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Conv1d(3, 32, 1), nn.BatchNorm1d(32), nn.ReLU())
        self.mlp2 = nn.Sequential(nn.Conv1d(32, 64, 1), nn.BatchNorm1d(64), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, num_classes))

    def forward(self, pts):
        # pts: (B, N, 3) -> (B, 3, N)
        x = self.mlp2(self.mlp1(pts.transpose(1, 2)))
        x = x.amax(dim=2)
        return self.head(x)


model = PointNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def compute_loss(pts, labels):
    logits = model(pts)
    return F.cross_entropy(logits.float(), labels)


def jitter(pts):
    centred = pts - pts.mean(dim=1, keepdim=True)
    return centred / centred.norm(dim=2).amax(dim=1).view(-1, 1, 1)


for epoch in range(3):
    use_amp = epoch >= 1
    for _ in range(3):
        pts = jitter(torch.randn(8, 128, 3))
        labels = torch.randint(0, 8, (8,))
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_amp):
            loss = compute_loss(pts, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} amp {use_amp} loss {loss.item():.4f}")
