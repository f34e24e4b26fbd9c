"""Chunked streaming inference of a causal conv encoder: each chunk is
processed together with the left-context cache carried over from the
previous chunk; the first chunk of an utterance has no cache yet."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
KERNEL = 5
CHANNELS = 32
CHUNK = 1600  # 100 ms at 16 kHz


class CausalEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = nn.Conv1d(1, CHANNELS, 16, stride=8)
        self.causal = nn.Conv1d(CHANNELS, CHANNELS, KERNEL)
        self.proj = nn.Linear(CHANNELS, 10)

    def forward(self, chunk, cache):
        x = self.frontend(chunk.unsqueeze(1))
        if cache is None:
            x = F.pad(x, (KERNEL - 1, 0))
        else:
            x = torch.cat([cache, x], dim=-1)
        new_cache = x[..., -(KERNEL - 1):]
        y = torch.relu(self.causal(x))
        return self.proj(y.transpose(1, 2)), new_cache


encoder = CausalEncoder().eval()
step = torch.compile(encoder, backend="aot_eager")


def stream(utterance):
    cache = None
    outputs = []
    for start in range(0, utterance.shape[-1], CHUNK):
        chunk = utterance[:, start:start + CHUNK]
        logits, cache = step(chunk, cache)
        outputs.append(logits.argmax(-1))
    return torch.cat(outputs, dim=1)


with torch.no_grad():
    for n in range(3):
        # 0.5 s utterances: five full chunks, then one of 800 samples
        utt = torch.randn(1, CHUNK * 5 + 800)
        tokens = stream(utt)
        print(f"utterance {n}: {tokens.shape[1]} frames, first {tokens[0, :8].tolist()}")
