"""Gesture classification from a small FMCW radar with a learnt complex
beamformer in front of a tiny classifier.

Recordings are stored as interleaved I/Q floats (..., 2); the step turns
them into complex samples, steers the antenna array with learnt complex
weights and classifies the magnitude profile. Sessions from the two rigs in
the lab use different chirp lengths.
"""

import torch
from torch import nn

torch.manual_seed(0)
N_ANT, N_CLASSES = 4, 6


class BeamformNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.steer = nn.Parameter(torch.randn(N_ANT, dtype=torch.complex64) / N_ANT)
        self.pool = nn.AdaptiveAvgPool1d(16)
        self.head = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))

    def forward(self, iq):
        x = torch.view_as_complex(iq)  # (batch, antennas, samples)
        beam = (x * self.steer[None, :, None]).sum(1)
        profile = self.pool(beam.abs()[:, None, :]).squeeze(1)
        return self.head(torch.log1p(profile))


model = BeamformNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def train_step(iq, labels):
    logits = model(iq)
    return nn.functional.cross_entropy(logits, labels)


def load_session(chirp_len, n=24):
    # stand-in for reading one recording session from disk
    iq = torch.randn(n, N_ANT, chirp_len, 2)
    labels = torch.randint(0, N_CLASSES, (n,))
    return iq, labels


# rig A records 128-sample chirps, rig B 96
sessions = [("rigA", 128), ("rigA", 128), ("rigB", 96), ("rigA", 128), ("rigB", 96)]
for name, chirp_len in sessions:
    iq, labels = load_session(chirp_len)
    for _ in range(2):
        loss = train_step(iq, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name} chirp {chirp_len} loss {loss.item():.4f}")
