"""Spectral feature extraction for a vibration classifier.

Each sensor type has its own preprocessing config; the FFT normalisation
comes from the config of the sensor that produced the batch.
"""

import torch
from torch import nn

torch.manual_seed(0)

SENSOR_CONFIGS = {
    "accel": {"norm": "ortho", "keep": 32},
    "gyro": {"norm": None, "keep": 32},
    "mic": {"norm": "forward", "keep": 32},
}

clf = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.Adam(clf.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def features_and_loss(signal, target, norm, keep):
    spec = torch.fft.rfft(signal, norm=norm)
    mag = spec.abs()[:, :keep]
    logits = clf(torch.log1p(mag))
    return nn.functional.cross_entropy(logits, target)


per_sensor = {name: [] for name in SENSOR_CONFIGS}
stream = ["accel", "accel", "gyro", "accel", "mic", "gyro", "accel", "mic"]
for i, sensor in enumerate(stream):
    cfg = SENSOR_CONFIGS[sensor]
    signal = torch.randn(16, 128)
    target = torch.randint(0, 4, (16,))
    loss = features_and_loss(signal, target, cfg["norm"], cfg["keep"])
    loss.backward()
    opt.step()
    opt.zero_grad()
    per_sensor[sensor].append(loss.item())
    print(f"batch {i} {sensor:5s} loss {loss.item():.3f}")

for name, losses in per_sensor.items():
    print(f"{name:5s} mean loss {sum(losses) / len(losses):.3f} over {len(losses)} batches")
