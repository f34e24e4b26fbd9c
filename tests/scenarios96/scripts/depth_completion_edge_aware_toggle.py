"""Sparse-to-dense depth completion: a small encoder-decoder fills in a
sparse LiDAR-like depth map; after warm-up the loss head switches on an
edge-aware smoothness term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DepthLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.edge_aware = False
        self.smooth_weight = 0.1

    def forward(self, pred, target, mask, rgb):
        l1 = (torch.abs(pred - target) * mask).sum() / mask.sum().clamp(min=1)
        if not self.edge_aware:
            return l1
        dx = torch.abs(pred[..., :, 1:] - pred[..., :, :-1])
        dy = torch.abs(pred[..., 1:, :] - pred[..., :-1, :])
        wx = torch.exp(-torch.abs(rgb[..., :, 1:] - rgb[..., :, :-1]).mean(1, keepdim=True))
        wy = torch.exp(-torch.abs(rgb[..., 1:, :] - rgb[..., :-1, :]).mean(1, keepdim=True))
        return l1 + self.smooth_weight * ((dx * wx).mean() + (dy * wy).mean())


class Completion(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Conv2d(4, 16, 3, padding=1)
        self.enc2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.dec = nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1)
        self.out = nn.Conv2d(32, 1, 3, padding=1)
        self.criterion = DepthLoss()

    def forward(self, rgb, sparse, target, mask):
        x = torch.cat([rgb, sparse], dim=1)
        e1 = F.relu(self.enc1(x))
        e2 = F.relu(self.enc2(e1))
        d = F.relu(self.dec(e2))
        pred = F.softplus(self.out(torch.cat([d, e1], dim=1)))
        return self.criterion(pred, target, mask, rgb)


model = Completion()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")

for epoch in range(5):
    if epoch == 2:
        model.criterion.edge_aware = True
    for _ in range(3):
        rgb = torch.rand(4, 3, 32, 32)
        dense = torch.rand(4, 1, 32, 32) * 10
        keep = (torch.rand(4, 1, 32, 32) < 0.05).float()
        loss = step_fn(rgb, dense * keep, dense, torch.ones_like(dense))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
