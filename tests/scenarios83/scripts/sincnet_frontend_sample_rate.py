import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SincConv(nn.Module):
    """Learnable band-pass filters parameterised by their cut-off frequencies in Hz."""

    def __init__(self, out_channels=16, kernel_size=63, sample_rate=16000, min_low_hz=50, min_band_hz=50):
        super().__init__()
        self.kernel_size = kernel_size
        self.sample_rate = sample_rate
        self.min_low_hz = min_low_hz
        self.min_band_hz = min_band_hz
        mel = torch.linspace(2595 * math.log10(1 + 30 / 700), 2595 * math.log10(1 + 3800 / 700), out_channels + 1)
        hz = 700 * (10 ** (mel / 2595) - 1)
        self.low_hz = nn.Parameter(hz[:-1].unsqueeze(1))
        self.band_hz = nn.Parameter(hz.diff().unsqueeze(1))
        n = torch.arange(kernel_size) - (kernel_size - 1) / 2
        self.register_buffer("n", n.unsqueeze(0))
        self.register_buffer("window", torch.hann_window(kernel_size, periodic=False).unsqueeze(0))

    def forward(self, wave):
        low = self.min_low_hz + self.low_hz.abs()
        high = torch.clamp(low + self.min_band_hz + self.band_hz.abs(), max=self.sample_rate / 2)
        t = self.n / self.sample_rate
        band_pass = 2 * high * torch.sinc(2 * high * t) - 2 * low * torch.sinc(2 * low * t)
        band_pass = band_pass * self.window
        band_pass = band_pass / band_pass.abs().amax(dim=1, keepdim=True)
        filters = band_pass.unsqueeze(1)
        return F.conv1d(wave, filters, padding=self.kernel_size // 2)


class SincNetClassifier(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.sinc = SincConv()
        self.body = nn.Sequential(
            nn.MaxPool1d(4), nn.LeakyReLU(0.2), nn.BatchNorm1d(16),
            nn.Conv1d(16, 24, 5, stride=2), nn.LeakyReLU(0.2), nn.BatchNorm1d(24),
            nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(24, n_classes)

    def forward(self, wave):
        x = self.sinc(wave).abs()
        return self.fc(self.body(x).flatten(1))


def make_batch(n, samples, sample_rate):
    labels = torch.randint(0, 5, (n,))
    t = torch.arange(samples) / sample_rate
    freqs = 200.0 * (labels.float() + 1).unsqueeze(1)
    wave = torch.sin(2 * math.pi * freqs * t) + 0.3 * torch.randn(n, samples)
    return wave.unsqueeze(1), labels


model = SincNetClassifier()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

# wideband corpus first, then fine-tune on telephone-band recordings (same clip length in samples)
for corpus, sample_rate in [("wideband", 16000), ("telephone", 8000)]:
    model.sinc.sample_rate = sample_rate
    for step in range(4):
        wave, labels = make_batch(8, 2000, sample_rate)
        loss = F.cross_entropy(cmodel(wave), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{corpus} ({sample_rate} Hz): loss {loss.item():.3f}")
