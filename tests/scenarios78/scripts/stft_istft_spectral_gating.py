import math

import torch
import torch.nn as nn

torch.manual_seed(0)

SAMPLE_RATE = 8000
N_FFT, HOP = 256, 64


class SpectralGate(nn.Module):
    """Predicts a per-bin gain from the log magnitude and resynthesises."""

    def __init__(self, n_fft, hop):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        bins = n_fft // 2 + 1
        self.register_buffer("window", torch.blackman_window(n_fft))
        self.net = nn.Sequential(nn.Linear(bins, 64), nn.ReLU(), nn.Linear(64, bins))

    def forward(self, wave):
        spec = torch.stft(wave, self.n_fft, self.hop, window=self.window, return_complex=True)
        feats = torch.log1p(spec.abs()).transpose(1, 2)
        gain = torch.sigmoid(self.net(feats)).transpose(1, 2)
        return torch.istft(spec * gain, self.n_fft, self.hop, window=self.window, length=wave.shape[-1])


def make_clip(seconds):
    n = int(seconds * SAMPLE_RATE)
    t = torch.arange(n) / SAMPLE_RATE
    f0 = 200 + 300 * torch.rand(1)
    clean = 0.5 * torch.sin(2 * math.pi * f0 * t) + 0.2 * torch.sin(2 * math.pi * 2.5 * f0 * t)
    noisy = clean + 0.3 * torch.randn(n)
    return noisy, clean


# recordings of different durations, grouped into batches of same-length crops
durations = [0.5, 0.5, 0.65, 0.4, 0.8, 0.5]
model = SpectralGate(N_FFT, HOP)
gate = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for step, dur in enumerate(durations):
    pairs = [make_clip(dur) for _ in range(4)]
    noisy = torch.stack([p[0] for p in pairs])
    clean = torch.stack([p[1] for p in pairs])
    denoised = gate(noisy)
    loss = torch.mean((denoised - clean) ** 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} samples {noisy.shape[-1]} loss {loss.item():.4f}")
