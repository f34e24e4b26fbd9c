import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RotaryCache(nn.Module):
    def __init__(self, head_dim, base=10000.0, initial=32):
        super().__init__()
        inv = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("inv_freq", inv, persistent=False)
        self.cached_len = 0
        self._build(initial)

    def _build(self, n):
        t = torch.arange(n).float()
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        self.register_buffer("cos", emb.cos(), persistent=False)
        self.register_buffer("sin", emb.sin(), persistent=False)
        self.cached_len = n

    def forward(self, seq_len):
        if seq_len > self.cached_len:
            self._build(max(seq_len, 2 * self.cached_len))
        return self.cos[:seq_len], self.sin[:seq_len]


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat([-b, a], dim=-1)


class Attention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.rope = RotaryCache(self.hd)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        cos, sin = self.rope(n)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(b, n, d))


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = Attention(dim)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.attn(self.norm(h))
        return self.head(h)


model = Encoder().eval()
cmodel = torch.compile(model, backend="aot_eager")

doc_lengths = [24, 24, 32, 40, 40, 24, 72, 64, 130, 40]
with torch.no_grad():
    for i, n in enumerate(doc_lengths):
        ids = torch.randint(0, 100, (2, n))
        logits = cmodel(ids)
        nll = F.cross_entropy(logits[:, :-1].reshape(-1, 100), ids[:, 1:].reshape(-1))
        print(f"doc {i} len {n} cache {model.attn.rope.cached_len} nll {nll.item():.3f}")
