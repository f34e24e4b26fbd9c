import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_MELS = 40
N_FRAMES = 64
N_CLASSES = 6


class SpecAugment(nn.Module):
    def __init__(self, freq_width=6, time_width=8):
        super().__init__()
        self.freq_width = freq_width
        self.time_width = time_width
        self.num_freq_masks = 0
        self.num_time_masks = 0

    def forward(self, spec):
        # spec: (batch, mels, frames)
        if not self.training:
            return spec
        b, f, t = spec.shape
        keep = torch.ones_like(spec, dtype=torch.bool)
        freq_idx = torch.arange(f, device=spec.device).view(1, f, 1)
        time_idx = torch.arange(t, device=spec.device).view(1, 1, t)
        for _ in range(self.num_freq_masks):
            start = torch.randint(0, f - self.freq_width, (b, 1, 1))
            width = torch.randint(1, self.freq_width + 1, (b, 1, 1))
            keep &= ~((freq_idx >= start) & (freq_idx < start + width))
        for _ in range(self.num_time_masks):
            start = torch.randint(0, t - self.time_width, (b, 1, 1))
            width = torch.randint(1, self.time_width + 1, (b, 1, 1))
            keep &= ~((time_idx >= start) & (time_idx < start + width))
        return torch.where(keep, spec, spec.mean(dim=(1, 2), keepdim=True))


class KeywordCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.augment = SpecAugment()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(16, N_CLASSES)

    def forward(self, logmel):
        x = self.augment(logmel)
        x = (x - x.mean(dim=-1, keepdim=True)) / (x.std(dim=-1, keepdim=True) + 1e-5)
        return self.fc(self.conv(x.unsqueeze(1)).flatten(1))


def fake_batch(n=16):
    labels = torch.randint(0, N_CLASSES, (n,))
    base = torch.randn(n, N_MELS, N_FRAMES) * 0.5
    tone = torch.sin(torch.arange(N_MELS).float().view(1, -1, 1) * (labels.view(-1, 1, 1) + 1) / math.pi)
    return torch.log1p((base + tone).abs()), labels


# augmentation curriculum: (freq masks, time masks) per epoch
CURRICULUM = [(0, 0), (1, 1), (1, 1), (2, 2)]

model = KeywordCNN()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch, (nf, nt) in enumerate(CURRICULUM):
    model.augment.num_freq_masks = nf
    model.augment.num_time_masks = nt
    model.train()
    total = 0.0
    for step in range(3):
        spec, labels = fake_batch()
        loss = F.cross_entropy(cmodel(spec), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} masks=({nf},{nt}) loss {total / 3:.4f}")
