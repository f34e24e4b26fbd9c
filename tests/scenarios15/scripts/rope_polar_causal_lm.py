"""A tiny decoder-only LM with complex-number rotary embeddings.

Rotary frequencies are built with torch.polar for the current sequence
length and applied through view_as_complex; the causal mask is a triu of
the current length. Training uses a length curriculum: short sequences
first, longer later.
"""

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM, HEADS = 128, 64, 4


def rope_freqs(seq_len, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(seq_len).float(), inv)
    return torch.polar(torch.ones_like(angles), angles)  # complex64 (T, hd/2)


def apply_rope(x, freqs):
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    out = torch.view_as_real(xc * freqs)
    return out.flatten(-2).type_as(x)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))
        self.n1, self.n2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)

    def forward(self, x, freqs, mask):
        B, T, _ = x.shape
        q, k, v = self.qkv(self.n1(x)).view(B, T, 3, HEADS, DIM // HEADS).unbind(2)
        q, k = apply_rope(q.transpose(1, 2), freqs), apply_rope(k.transpose(1, 2), freqs)
        att = (q @ k.transpose(-1, -2)) / (DIM // HEADS) ** 0.5
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        y = (att @ v.transpose(1, 2)).transpose(1, 2).reshape(B, T, DIM)
        x = x + self.proj(y)
        return x + self.mlp(self.n2(x))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        T = ids.shape[1]
        freqs = rope_freqs(T, DIM // HEADS)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        x = self.emb(ids)
        for blk in self.blocks:
            x = blk(x, freqs, mask)
        return self.head(x)


model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
step_fn = torch.compile(model, backend="aot_eager")

# length curriculum
for seq_len in [16, 16, 32, 32, 48, 64]:
    ids = torch.randint(0, VOCAB, (4, seq_len + 1))
    logits = step_fn(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"len {seq_len} loss {loss.item():.3f}")
