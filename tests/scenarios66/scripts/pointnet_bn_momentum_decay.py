"""PointNet-style point cloud classifier trained with a batch-norm momentum
schedule (decayed every epoch, as in the original PointNet training code)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_POINTS, NUM_CLASSES = 64, 3


class TinyPointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.bn1 = nn.BatchNorm1d(32)
        self.conv2 = nn.Conv1d(32, 64, 1)
        self.bn2 = nn.BatchNorm1d(64)
        self.fc = nn.Linear(64, 32)
        self.bn3 = nn.BatchNorm1d(32)
        self.head = nn.Linear(32, NUM_CLASSES)

    def forward(self, pts):
        x = F.relu(self.bn1(self.conv1(pts.transpose(1, 2))))
        x = F.relu(self.bn2(self.conv2(x)))
        x = x.max(dim=2).values
        x = F.relu(self.bn3(self.fc(x)))
        return self.head(x)


class BNMomentumScheduler:
    def __init__(self, model, init=0.5, decay=0.5, step_size=2, minimum=0.01):
        self.model, self.init, self.decay = model, init, decay
        self.step_size, self.minimum = step_size, minimum
        self.step(0)

    def step(self, epoch):
        momentum = max(self.init * self.decay ** (epoch // self.step_size), self.minimum)
        for m in self.model.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.momentum = momentum
        return momentum


def sample_shapes(n):
    labels = torch.randint(0, NUM_CLASSES, (n,))
    pts = torch.randn(n, NUM_POINTS, 3)
    sphere = pts / pts.norm(dim=2, keepdim=True)
    cube = pts.clamp(-1, 1)
    flat = pts * torch.tensor([1.0, 1.0, 0.05])
    shapes = torch.stack([sphere, cube, flat], 1)[torch.arange(n), labels]
    return shapes + 0.02 * torch.randn_like(shapes), labels


model = TinyPointNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
bn_sched = BNMomentumScheduler(model)
cmodel = torch.compile(model, backend="aot_eager")

for epoch in range(6):
    momentum = bn_sched.step(epoch)
    model.train()
    for _ in range(3):
        pts, labels = sample_shapes(16)
        loss = F.cross_entropy(cmodel(pts), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} bn momentum {momentum:.3f} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    pts, labels = sample_shapes(64)
    acc = (cmodel(pts).argmax(1) == labels).float().mean()
print(f"test acc {acc.item():.3f}")
