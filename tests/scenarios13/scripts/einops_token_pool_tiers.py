"""Long-document encoder served at three latency tiers.

Requests come in tagged with a tier. Cheaper tiers average neighbouring token
embeddings together before the transformer blocks (mean-pooling groups of g
tokens with einops), so the same weights serve all tiers.
"""

import torch
import torch.nn.functional as F
from einops import rearrange, reduce, repeat
from torch import nn

torch.manual_seed(0)

TIERS = {"full": 1, "balanced": 2, "fast": 4}


class PooledEncoder(nn.Module):
    def __init__(self, vocab=500, dim=64, heads=4, n_classes=5):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens, group):
        x = self.embed(tokens)
        # squash every `group` neighbouring tokens into one
        x = reduce(x, "b (n g) d -> b n d", "mean", g=group)
        cls = repeat(self.cls, "1 1 d -> b 1 d", b=x.shape[0])
        x = torch.cat([cls, x], dim=1)

        q, k, v = rearrange(self.qkv(self.norm1(x)), "b n (three h e) -> three b h n e", three=3, h=self.heads)
        att = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(rearrange(att, "b h n e -> b n (h e)"))
        x = x + self.mlp(self.norm2(x))
        return self.head(x[:, 0])


model = PooledEncoder().eval()
compiled = torch.compile(model, backend="aot_eager")

# a small replay of yesterday's traffic: (tier, batch of documents)
traffic = ["full", "full", "fast", "balanced", "fast", "full", "balanced"]

with torch.no_grad():
    for i, tier in enumerate(traffic):
        docs = torch.randint(0, 500, (8, 128))
        logits = compiled(docs, TIERS[tier])
        top = logits.argmax(-1)
        print(f"request {i} tier={tier:8s} predicted classes {top.tolist()}")
