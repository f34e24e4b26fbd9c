import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FEAT = 24
DIM = 32
CHUNK = 8
MAX_MEMORY_CHUNKS = 3


class ChunkAttentionLayer(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, memory):
        # x: (B, C, D) current chunk; memory: list of (B, C, D) past chunks
        context = torch.cat(memory + [x], dim=1)
        h = self.norm1(x)
        hc = self.norm1(context)
        b, c, d = h.shape
        q = self.qkv(h)[..., :d]
        kv = self.qkv(hc)[..., d:]
        k, v = kv.chunk(2, dim=-1)
        q = q.view(b, c, self.heads, -1).transpose(1, 2)
        k = k.view(b, -1, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, -1, self.heads, d // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-1, -2)) / (d // self.heads) ** 0.5
        out = att.softmax(-1) @ v
        x = x + self.proj(out.transpose(1, 2).reshape(b, c, d))
        return x + self.ff(self.norm2(x))


class StreamingEncoder(nn.Module):
    def __init__(self, vocab=30):
        super().__init__()
        self.inp = nn.Linear(FEAT, DIM)
        self.layer = ChunkAttentionLayer(DIM)
        self.head = nn.Linear(DIM, vocab)

    def forward(self, chunk, memory):
        x = self.layer(self.inp(chunk), memory)
        return self.head(x).log_softmax(-1), x.detach()


class StreamingRecognizer:
    """Feeds fixed-size chunks and keeps the last few encoded chunks as left context."""

    def __init__(self, model):
        self.model = model
        self.step = torch.compile(model, backend="aot_eager")
        self.memory = []

    def reset(self):
        self.memory = []

    @torch.no_grad()
    def push(self, chunk):
        log_probs, encoded = self.step(chunk, self.memory)
        self.memory.append(encoded)
        if len(self.memory) > MAX_MEMORY_CHUNKS:
            self.memory.pop(0)
        return log_probs.argmax(-1)


model = StreamingEncoder().eval()
recognizer = StreamingRecognizer(model)

for utt in range(2):
    frames = torch.randn(1, CHUNK * 6, FEAT)
    recognizer.reset()
    hyp = []
    for start in range(0, frames.shape[1], CHUNK):
        tokens = recognizer.push(frames[:, start:start + CHUNK])
        hyp.extend(t for t in tokens[0].tolist() if t != 0)
    print(f"utterance {utt}: {len(hyp)} tokens, memory={len(recognizer.memory)} chunks")
