"""Keyword-spotting model fed log-magnitude spectrograms from two corpora.

The speech corpus is framed with a 25 ms window / 10 ms hop at 16 kHz; the
far-field corpus was recorded at 8 kHz so it uses its own n_fft and hop.
Batches from the two corpora are interleaved in one training loop.
"""

import torch
from torch import nn

torch.manual_seed(0)

CORPORA = {
    "speech16k": {"n_fft": 400, "hop": 160, "samples": 16000},
    "farfield8k": {"n_fft": 256, "hop": 80, "samples": 8000},
}


class KwsNet(nn.Module):
    def __init__(self, n_keywords=10):
        super().__init__()
        self.proj = nn.Linear(64, 64)
        self.gru_like = nn.Linear(64, 64)
        self.out = nn.Linear(64, n_keywords)

    def forward(self, spec):
        h = torch.tanh(self.proj(spec))
        h = torch.tanh(self.gru_like(h))
        return self.out(h.mean(1))


@torch.compile(backend="aot_eager")
def log_spectrogram(wave, n_fft, hop):
    window = torch.hann_window(n_fft)
    spec = torch.stft(wave, n_fft=n_fft, hop_length=hop, window=window, return_complex=True)
    mag = spec.abs().clamp_min(1e-5).log()
    # (batch, freq, frames) -> (batch, frames, freq), keep the lowest 64 bins
    return mag[:, :64, :].transpose(1, 2)


model = KwsNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

order = ["speech16k", "speech16k", "farfield8k", "speech16k", "farfield8k", "farfield8k"]
for step, corpus in enumerate(order):
    cfg = CORPORA[corpus]
    wave = torch.randn(8, cfg["samples"])
    labels = torch.randint(0, 10, (8,))
    feats = log_spectrogram(wave, cfg["n_fft"], cfg["hop"])
    loss = nn.functional.cross_entropy(model(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} {corpus} frames {feats.shape[1]} loss {loss.item():.4f}")
