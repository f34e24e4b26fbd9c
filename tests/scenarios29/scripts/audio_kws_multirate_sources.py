"""Keyword spotting on raw waveforms with a small 1-D conv net.

Clips come from different recorders, so each source has its own sample
rate; we resample cheaply by taking every n-th sample before the model.
"""

import torch
from torch import nn

torch.manual_seed(0)


class KWSNet(nn.Module):
    def __init__(self, n_words=6):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(1, 16, kernel_size=80, stride=16),
            nn.BatchNorm1d(16),
            nn.ReLU(),
            nn.Conv1d(16, 32, kernel_size=3, padding=1),
            nn.ReLU(),
        )
        self.head = nn.Linear(32, n_words)

    def forward(self, wav):
        frames = self.frontend(wav.unsqueeze(1))
        return self.head(frames.mean(-1))


net = KWSNet()
model = torch.compile(net, backend="aot_eager")
opt = torch.optim.Adam(net.parameters(), lr=1e-3)

# one second clips, recorded at different rates; target rate is 8 kHz
sources = [("phone", 16000), ("headset", 8000), ("studio", 48000), ("phone", 16000)]

for epoch in range(2):
    for name, rate in sources:
        clips = torch.randn(12, rate)
        words = torch.randint(0, 6, (12,))
        step = rate // 8000
        wav = clips[:, ::step]
        loss = nn.functional.cross_entropy(model(wav), words)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} {name:8s} {wav.shape[1]} samples loss {loss.item():.4f}")
