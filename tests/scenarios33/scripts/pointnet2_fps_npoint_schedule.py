"""PointNet++-style classifier with farthest point sampling.

The set-abstraction layer samples `npoint` centroids with farthest point
sampling and groups the k nearest neighbours of each. Following a
coarse-to-fine schedule, training starts with few centroids and raises
`npoint` every couple of epochs.
"""

import torch
from torch import nn

torch.manual_seed(0)


def farthest_point_sample(xyz, npoint):
    # xyz: (B, N, 3); greedy FPS, starting from point 0 of each cloud
    B, N, _ = xyz.shape
    idx = torch.zeros(B, npoint, dtype=torch.long)
    dist = torch.full((B, N), 1e10)
    farthest = torch.zeros(B, dtype=torch.long)
    batch = torch.arange(B)
    for i in range(npoint):
        idx[:, i] = farthest
        centroid = xyz[batch, farthest][:, None, :]
        d = ((xyz - centroid) ** 2).sum(-1)
        dist = torch.minimum(dist, d)
        farthest = dist.argmax(-1)
    return idx


class SetAbstraction(nn.Module):
    def __init__(self, k=8):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64))

    def forward(self, xyz, npoint):
        B = xyz.shape[0]
        centers_idx = farthest_point_sample(xyz, npoint)
        centers = xyz[torch.arange(B)[:, None], centers_idx]  # (B, npoint, 3)
        d = torch.cdist(centers, xyz)
        knn = d.topk(self.k, largest=False).indices  # (B, npoint, k)
        grouped = xyz[torch.arange(B)[:, None, None], knn] - centers[:, :, None]
        return self.mlp(grouped).max(2).values  # (B, npoint, 64)


class PointClassifier(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.sa = SetAbstraction()
        self.head = nn.Linear(64, classes)

    def forward(self, xyz, npoint):
        feats = self.sa(xyz, npoint)
        return self.head(feats.max(1).values)


model = PointClassifier()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

npoint_schedule = {0: 16, 2: 24, 4: 32}
npoint = 16
for epoch in range(6):
    npoint = npoint_schedule.get(epoch, npoint)
    for _ in range(3):
        clouds = torch.rand(4, 256, 3)
        labels = torch.randint(0, 10, (4,))
        loss = nn.functional.cross_entropy(cmodel(clouds, npoint), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} npoint {npoint} loss {loss.item():.4f}")
