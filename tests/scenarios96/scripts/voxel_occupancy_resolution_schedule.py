"""Coarse-to-fine voxel occupancy classifier: point clouds are voxelised
inside the compiled step at a grid resolution that grows during training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VoxelNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv3d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm3d(8)
        self.conv2 = nn.Conv3d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool3d(2)
        self.fc = nn.Linear(16 * 4 * 4 * 4, num_classes)

    def forward(self, grid):
        x = self.pool(F.relu(self.bn1(self.conv1(grid))))
        x = F.relu(self.conv2(x))
        x = F.adaptive_avg_pool3d(x, 4)
        return self.fc(x.flatten(1))


def voxelize(points, res):
    # points in [0, 1)^3, shape (B, N, 3) -> occupancy grid (B, 1, res, res, res)
    b = points.shape[0]
    idx = (points * res).long().clamp(0, res - 1)
    flat = idx[..., 0] * res * res + idx[..., 1] * res + idx[..., 2]
    grid = torch.zeros(b, res * res * res)
    grid.scatter_add_(1, flat, torch.ones_like(flat, dtype=grid.dtype))
    grid = (grid > 0).float()
    return grid.view(b, 1, res, res, res)


model = VoxelNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def train_step(points, labels, res):
    grid = voxelize(points, res)
    logits = model(grid)
    return F.cross_entropy(logits, labels)


schedule = {0: 8, 2: 12, 4: 16}
res = schedule[0]
for epoch in range(6):
    res = schedule.get(epoch, res)
    for _ in range(2):
        points = torch.rand(8, 256, 3)
        labels = torch.randint(0, 4, (8,))
        loss = train_step(points, labels, res)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} res {res} loss {loss.item():.4f}")
