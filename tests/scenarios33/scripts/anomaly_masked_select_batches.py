"""Anomaly scoring service for sensor windows.

Each batch of windows is scored by a small autoencoder; the windows whose
reconstruction error is above a threshold are gathered with masked_select
and the distinct sensor ids among them are reported. After the first
shift the team turned on capture of dynamic output shapes so the filtering
stays inside the compiled step.
"""

import torch
from torch import nn

torch.manual_seed(0)

WINDOW = 32


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(WINDOW, 16), nn.Tanh(), nn.Linear(16, 4))
        self.dec = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, WINDOW))

    def forward(self, x):
        return self.dec(self.enc(x))


ae = AutoEncoder().eval()


@torch.compile(backend="aot_eager")
def score_batch(windows, sensor_ids, threshold):
    err = ((ae(windows) - windows) ** 2).mean(-1)
    flagged = err > threshold
    flagged_err = torch.masked_select(err, flagged)
    flagged_sensors = torch.unique(sensor_ids[flagged])
    return flagged_err, flagged_sensors


threshold = torch.tensor(1.05)
with torch.no_grad():
    # shift 1
    for batch in range(3):
        windows = torch.randn(64, WINDOW)
        sensors = torch.randint(0, 20, (64,))
        errs, ids = score_batch(windows, sensors, threshold)
        print(f"shift 1 batch {batch}: {errs.numel()} flagged, sensors {ids.tolist()}")

    torch._dynamo.config.capture_dynamic_output_shape_ops = True
    # shift 2
    for batch in range(3):
        windows = torch.randn(64, WINDOW)
        sensors = torch.randint(0, 20, (64,))
        errs, ids = score_batch(windows, sensors, threshold)
        print(f"shift 2 batch {batch}: {errs.numel()} flagged, sensors {ids.tolist()}")
