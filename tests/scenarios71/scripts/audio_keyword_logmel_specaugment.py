import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

SAMPLE_RATE = 8000
N_FFT, HOP, N_MELS = 256, 128, 20
SPEC_AUGMENT = True


def mel_filterbank(n_fft, n_mels, sr):
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)

    mels = torch.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.linspace(0, sr / 2, n_fft // 2 + 1)
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        left, center, right = hz[m - 1], hz[m], hz[m + 1]
        up = (bins - left) / (center - left)
        down = (right - bins) / (right - center)
        fb[m - 1] = torch.minimum(up, down).clamp(min=0.0)
    return fb


class KeywordSpotter(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.window = torch.hamming_window(N_FFT)
        self.fb = mel_filterbank(N_FFT, N_MELS, SAMPLE_RATE)
        self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(64), nn.ReLU(), nn.Linear(64, n_classes))

    def features(self, wav):
        n_frames = 1 + (wav.shape[-1] - N_FFT) // HOP
        frames = wav.as_strided((wav.shape[0], n_frames, N_FFT), (wav.shape[-1], HOP, 1))
        spec = torch.fft.fft(frames * self.window).abs()[..., : N_FFT // 2 + 1] ** 2
        logmel = torch.log10(spec @ self.fb.T + 1e-6)
        if SPEC_AUGMENT:
            # mask a random band of mel channels
            band = torch.randint(0, N_MELS - 4, (1,))
            idx = torch.arange(N_MELS)
            logmel = logmel * ((idx < band) | (idx >= band + 4)).float()
        return logmel

    def forward(self, wav):
        return self.net(self.features(wav))


clips = torch.randn(96, SAMPLE_RATE)
labels = torch.randint(0, 6, (96,))
model = KeywordSpotter()
model(clips[:2])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
compiled = torch.compile(model, backend="aot_eager")

for epoch in range(3):
    SPEC_AUGMENT = True
    for i in range(0, 64, 16):
        loss = F.cross_entropy(compiled(clips[i : i + 16]), labels[i : i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    SPEC_AUGMENT = False
    acc = (compiled(clips[64:80]).argmax(1) == labels[64:80]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.3f}")
