"""Decoder pretraining with a sequence-length curriculum; the rotary
embedding keeps a cos/sin cache that is rebuilt when a longer sequence
arrives."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, HEADS = 80, 32, 4


class RotaryCache(nn.Module):
    def __init__(self, head_dim, base=10000.0, initial_len=16):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.cached_len = 0
        self._build(initial_len)

    def _build(self, n):
        t = torch.arange(n, dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)
        self.cached_len = n

    def forward(self, seq_len):
        return self.cos_cached[:seq_len], self.sin_cached[:seq_len]


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, D // HEADS).unbind(2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, D))
        return x + self.mlp(self.ln2(x))


class RopeLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.rope = RotaryCache(D // HEADS)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.out = nn.Linear(D, VOCAB)

    def forward(self, ids):
        cos, sin = self.rope(ids.shape[1])
        x = self.tok(ids)
        for blk in self.blocks:
            x = blk(x, cos, sin)
        return self.out(x)


model = RopeLM()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
compiled = torch.compile(model, backend="aot_eager")

curriculum = [16, 16, 16, 32, 32, 32, 48, 48, 48]
for step, seq_len in enumerate(curriculum):
    if seq_len > model.rope.cached_len:
        model.rope._build(seq_len * 2)
    ids = torch.randint(0, VOCAB, (4, seq_len + 1))
    logits = compiled(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} seq {seq_len} cache {model.rope.cached_len} loss {loss.item():.3f}")
