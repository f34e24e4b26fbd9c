"""Keyword spotting on raw audio clips of different lengths.

The user's front end cuts each clip into 16-sample frames with a view (the
data loader pads every clip to a whole number of frames) and pools a small
frame encoder over time. Clips arrive in batches of whatever length they were
recorded at.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

FRAME = 16


class FrameEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(FRAME, 48)
        self.mix = nn.Linear(48, 48)
        self.cls = nn.Linear(48, 6)

    def forward(self, wave):
        b = wave.shape[0]
        frames = wave.view(b, -1, FRAME)
        h = torch.tanh(self.proj(frames))
        h = h + torch.relu(self.mix(h))
        return self.cls(h.mean(1))


def pad_to_frames(wave):
    extra = (-wave.shape[-1]) % FRAME
    return F.pad(wave, (0, extra))


model = FrameEncoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

# clip lengths in samples, as they come out of the recorder
clip_lengths = [800, 800, 1000, 1210, 640, 1500, 990, 2048]

for step, length in enumerate(clip_lengths):
    wave = pad_to_frames(torch.randn(8, length))
    labels = torch.randint(0, 6, (8,))
    loss = F.cross_entropy(compiled(wave), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} clip {length} padded {wave.shape[-1]} loss {loss.item():.4f}")
