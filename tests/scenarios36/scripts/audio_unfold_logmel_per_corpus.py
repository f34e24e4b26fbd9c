import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_MELS = 32


@dataclass
class CorpusConfig:
    name: str
    sample_rate: int
    n_fft: int
    hop: int


CORPORA = [
    CorpusConfig("speech_commands", 16000, 400, 160),
    CorpusConfig("bird_calls", 22050, 512, 256),
    CorpusConfig("speech_commands_b", 16000, 400, 160),
    CorpusConfig("esc_environment", 44100, 1024, 512),
]


def mel_filterbank(n_fft, sr, n_mels=N_MELS):
    # triangular filters on a mel scale
    n_freqs = n_fft // 2 + 1
    mel = lambda f: 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(mel(0.0), mel(sr / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    freqs = torch.linspace(0, sr / 2, n_freqs)
    lo, mid, hi = hz[:-2, None], hz[1:-1, None], hz[2:, None]
    up = (freqs - lo) / (mid - lo)
    down = (hi - freqs) / (hi - mid)
    return torch.clamp(torch.minimum(up, down), min=0.0).T


class KeywordNet(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 64, 3, padding=1), nn.ReLU(),
            nn.Conv1d(64, 64, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Linear(64, n_classes)

    def forward(self, wav, fbank, n_fft, hop):
        frames = wav.unfold(-1, n_fft, hop)
        frames = frames * torch.hann_window(n_fft, device=wav.device)
        power = torch.fft.rfft(frames).abs().pow(2)
        logmel = torch.log(power @ fbank + 1e-6).transpose(1, 2)
        logmel = (logmel - logmel.mean(-1, keepdim=True)) / (logmel.std(-1, keepdim=True) + 1e-5)
        h = self.conv(logmel).mean(-1)
        return self.head(h)


def main():
    model = KeywordNet()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for cfg in CORPORA:
        fbank = mel_filterbank(cfg.n_fft, cfg.sample_rate)
        for step in range(3):
            # one-second clips
            wav = torch.randn(8, cfg.sample_rate) * 0.1
            y = torch.randint(0, 6, (8,))
            loss = F.cross_entropy(cmodel(wav, fbank, cfg.n_fft, cfg.hop), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"{cfg.name}: n_fft={cfg.n_fft} hop={cfg.hop} loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
