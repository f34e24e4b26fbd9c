"""Activation fake-quantisation with scales re-calibrated every epoch.

A small conv net quantises its hidden activations (uint8, affine) with a
straight-through estimator written by hand. After each epoch the activation
ranges are re-calibrated on a held-out batch with torch.ao HistogramObserver,
and the scale and zero point are stored on the module as Python numbers.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.quantization.observer import HistogramObserver

torch.manual_seed(0)


class ActQuant(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 0.05
        self.zero_point = 0
        self.calibrating = False
        self.observer = None

    def forward(self, x):
        if self.calibrating:
            self.observer(x.detach())
            return x
        q = torch.clamp(torch.round(x / self.scale) + self.zero_point, 0, 255)
        xq = (q - self.zero_point) * self.scale
        return x + (xq - x).detach()  # straight-through estimator


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.aq1 = ActQuant()
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, stride=2)
        self.aq2 = ActQuant()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.aq1(F.relu(self.conv1(x)))
        x = self.aq2(F.relu(self.conv2(x)))
        return self.fc(x.mean(dim=(2, 3)))


@torch.no_grad()
def calibrate(net, batch):
    quants = [m for m in net.modules() if isinstance(m, ActQuant)]
    for m in quants:
        m.observer = HistogramObserver(bins=256, dtype=torch.quint8)
        m.calibrating = True
    net(batch)  # eager: observers run in Python
    for m in quants:
        scale, zp = m.observer.calculate_qparams()
        m.scale, m.zero_point = float(scale), int(zp)
        m.calibrating = False
        m.observer = None


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=2e-3)


@torch.compile(backend="aot_eager")
def train_step(images, labels):
    loss = F.cross_entropy(net(images), labels)
    loss.backward()
    return loss


calib_batch = torch.randn(32, 1, 14, 14)
train = [(torch.randn(16, 1, 14, 14), torch.randint(0, 10, (16,))) for _ in range(3)]
calibrate(net, calib_batch)
for epoch in range(4):
    total = 0.0
    for images, labels in train:
        opt.zero_grad()
        loss = train_step(images, labels)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} aq1 scale {net.aq1.scale:.4f} zp {net.aq1.zero_point} loss {total / 3:.4f}")
    calibrate(net, calib_batch)
