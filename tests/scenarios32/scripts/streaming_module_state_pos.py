"""Real-time keyword spotting over audio-feature streams, chunk by chunk.

The model keeps the tail of the previous chunk and its position in the
stream on itself so a causal convolution and the positional table line
up across chunks; both are reset when a stream ends.
"""

import torch
from torch import nn

torch.manual_seed(0)
FEATS, KERNEL, CHUNK = 20, 3, 8


class StreamingSpotter(nn.Module):
    def __init__(self, dim=32, max_pos=256):
        super().__init__()
        self.conv = nn.Conv1d(FEATS, dim, KERNEL)
        self.pos_table = nn.Parameter(torch.randn(max_pos, dim) * 0.02)
        self.head = nn.Linear(dim, 4)
        self.state = None
        self.pos = 0

    def reset(self):
        self.state = None
        self.pos = 0

    def forward(self, chunk):
        # chunk: (batch, time, feats)
        x = chunk.transpose(1, 2)
        if self.state is None:
            x = nn.functional.pad(x, (KERNEL - 1, 0))
        else:
            x = torch.cat([self.state, x], dim=2)
        self.state = x[:, :, -(KERNEL - 1):].detach()
        h = self.conv(x).transpose(1, 2)
        t = h.shape[1]
        h = h + self.pos_table[self.pos : self.pos + t]
        self.pos += t
        return self.head(torch.relu(h))


model = StreamingSpotter().eval()
compiled = torch.compile(model, backend="aot_eager")

streams = [torch.randn(1, 4 * CHUNK, FEATS), torch.randn(1, 3 * CHUNK, FEATS)]

with torch.no_grad():
    for s, audio in enumerate(streams):
        model.reset()
        hits = 0
        for start in range(0, audio.shape[1], CHUNK):
            logits = compiled(audio[:, start : start + CHUNK])
            hits += int((logits.argmax(-1) == 3).sum())
        print(f"stream {s}: {hits} keyword frames")
