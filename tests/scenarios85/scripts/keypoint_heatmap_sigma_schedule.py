import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_JOINTS = 5
IMG = 64
HM = 16


class PoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.head = nn.Conv2d(32, NUM_JOINTS, 1)

    def forward(self, x):
        return self.head(self.body(x))


class HeatmapTrainer:
    """Trains a heatmap regressor; targets are Gaussians around each joint."""

    def __init__(self, model, sigma=3.0, min_sigma=1.0, decay=0.75):
        self.model = model
        self.sigma = sigma
        self.min_sigma = min_sigma
        self.decay = decay
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        ys = torch.arange(HM, dtype=torch.float32)
        xs = torch.arange(HM, dtype=torch.float32)
        self.grid_y, self.grid_x = torch.meshgrid(ys, xs, indexing="ij")

    def render_targets(self, joints):
        # joints: (B, J, 2) in heatmap pixels (x, y)
        gx = self.grid_x.view(1, 1, HM, HM)
        gy = self.grid_y.view(1, 1, HM, HM)
        jx = joints[..., 0].unsqueeze(-1).unsqueeze(-1)
        jy = joints[..., 1].unsqueeze(-1).unsqueeze(-1)
        return torch.exp(-((gx - jx) ** 2 + (gy - jy) ** 2) / (2 * self.sigma ** 2))

    def step_fn(self, images, joints, visible):
        pred = self.model(images)
        target = self.render_targets(joints)
        w = visible.float().unsqueeze(-1).unsqueeze(-1)
        loss = (F.mse_loss(pred, target, reduction="none") * w).mean()
        loss.backward()
        return loss

    def end_epoch(self):
        self.sigma = max(self.min_sigma, self.sigma * self.decay)


def soft_argmax(heatmaps, beta=10.0):
    b, j, h, w = heatmaps.shape
    p = F.softmax(heatmaps.view(b, j, -1) * beta, dim=-1).view(b, j, h, w)
    xs = torch.arange(w, dtype=p.dtype)
    ys = torch.arange(h, dtype=p.dtype)
    return torch.stack([(p.sum(2) * xs).sum(-1), (p.sum(3) * ys).sum(-1)], dim=-1)


def make_batch(bs=8):
    images = torch.rand(bs, 3, IMG, IMG)
    joints = torch.rand(bs, NUM_JOINTS, 2) * (HM - 1)
    visible = torch.rand(bs, NUM_JOINTS) > 0.2
    return images, joints, visible


model = PoseNet()
trainer = HeatmapTrainer(model)
train_step = torch.compile(trainer.step_fn, backend="aot_eager")

for epoch in range(5):
    for it in range(3):
        images, joints, visible = make_batch()
        trainer.opt.zero_grad()
        loss = train_step(images, joints, visible)
        trainer.opt.step()
    model.eval()
    with torch.no_grad():
        images, joints, visible = make_batch(4)
        err = (soft_argmax(model(images)) - joints).norm(dim=-1)[visible].mean()
    model.train()
    print(f"epoch {epoch} sigma {trainer.sigma:.3f} loss {loss.item():.4f} mean px err {err.item():.2f}")
    trainer.end_epoch()
