"""Mel-spectrogram feature extractor used for training in float32; before
export, the same compiled extractor is run in float64 on a few clips to
check the float32 features against a double-precision reference."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SR, N_FFT, HOP, N_MELS = 16000, 400, 160, 40


def mel_filterbank(n_mels, n_fft, sr):
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.linspace(0, sr / 2, n_fft // 2 + 1)
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        lo, c, hi = hz[m - 1], hz[m], hz[m + 1]
        fb[m - 1] = torch.clamp(torch.minimum((bins - lo) / (c - lo), (hi - bins) / (hi - c)), min=0)
    return fb


FB = mel_filterbank(N_MELS, N_FFT, SR)


@torch.compile(backend="aot_eager")
def log_mel(wave):
    window = torch.hann_window(N_FFT, dtype=wave.dtype)
    spec = torch.stft(wave, N_FFT, HOP, window=window, return_complex=True)
    power = spec.abs().pow(2)
    mel = FB.to(wave.dtype) @ power
    return torch.log(mel + 1e-6)


classifier = nn.Sequential(nn.Flatten(), nn.LazyLinear(5))
clips = torch.randn(16, SR // 2) * 0.05
labels = torch.randint(0, 5, (16,))
classifier(log_mel(clips[:1]))  # materialise the lazy layer
opt = torch.optim.SGD(classifier.parameters(), lr=0.05)

for step in range(4):
    idx = torch.randperm(16)[:8]
    loss = F.cross_entropy(classifier(log_mel(clips[idx])), labels[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"train loss {loss.item():.3f}")

ref = log_mel(clips[:4].double())
err = (log_mel(clips[:4]).double() - ref).abs().max()
print(f"max |float32 - float64| log-mel difference: {err.item():.2e}")
