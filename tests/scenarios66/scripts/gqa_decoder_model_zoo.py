"""Tiny decoder-only language models of two sizes served by one compiled
attention routine: the small model uses full multi-head attention, the larger
one grouped-query attention with fewer key/value heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def attention(q, k, v, gqa):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=gqa)


attend = torch.compile(attention, backend="aot_eager")


class Block(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads, self.n_kv = n_heads, n_kv_heads
        self.head_dim = dim // n_heads
        self.q = nn.Linear(dim, dim, bias=False)
        self.kv = nn.Linear(dim, 2 * n_kv_heads * self.head_dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.ln1(x)
        q = self.q(h).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(h).view(b, t, 2, self.n_kv, self.head_dim).permute(2, 0, 3, 1, 4)
        y = attend(q, k, v, self.n_kv != self.n_heads)
        x = x + self.o(y.transpose(1, 2).reshape(b, t, -1))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, n_heads, n_kv_heads, layers):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads, n_kv_heads) for _ in range(layers))
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.emb(ids)
        for blk in self.blocks:
            x = blk(x)
        return self.out(x)


ZOO = {
    "tiny-mha": dict(dim=32, n_heads=4, n_kv_heads=4, layers=2),
    "small-gqa": dict(dim=64, n_heads=8, n_kv_heads=2, layers=2),
}
models = {name: TinyLM(100, **cfg).eval() for name, cfg in ZOO.items()}


@torch.no_grad()
def greedy(model, prompt, new_tokens=4):
    ids = prompt
    for _ in range(new_tokens):
        nxt = model(ids)[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
    return ids


requests = [("tiny-mha", 6), ("tiny-mha", 6), ("small-gqa", 6), ("tiny-mha", 6), ("small-gqa", 6)]
for name, plen in requests:
    prompt = torch.randint(0, 100, (1, plen))
    out = greedy(models[name], prompt)
    print(name, out[0, plen:].tolist())
