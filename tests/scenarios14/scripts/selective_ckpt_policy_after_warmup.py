"""Small transformer-ish encoder trained with selective activation checkpointing.

During the first steps we keep the matmul outputs (cheap to store, costly to
recompute). After warm-up the memory profiler told us the activations of the
longer sequences no longer fit, so we switch to a stricter policy that only
keeps the attention scores' matmul and recomputes the rest.
"""

from functools import partial

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts

torch.manual_seed(0)

aten = torch.ops.aten

# ops whose outputs are stored rather than recomputed
GENEROUS = [aten.mm.default, aten.bmm.default, aten.addmm.default]
STRICT = [aten.bmm.default]


class Block(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def attn(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2).reshape(b * self.heads, n, -1) for t in (q, k, v))
        w = torch.bmm(q, k.transpose(1, 2)) / (q.shape[-1] ** 0.5)
        o = torch.bmm(w.softmax(-1), v)
        return self.proj(o.view(b, self.heads, n, -1).transpose(1, 2).reshape(b, n, d))

    def inner(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class Encoder(nn.Module):
    def __init__(self, depth=2):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(depth)])
        self.head = nn.Linear(64, 5)
        self.ckpt_context = partial(create_selective_checkpoint_contexts, GENEROUS)

    def forward(self, x):
        for blk in self.blocks:
            x = checkpoint(blk.inner, x, use_reentrant=False, context_fn=self.ckpt_context)
        return self.head(x.mean(1))


model = Encoder()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
compiled = torch.compile(model, backend="aot_eager")

x = torch.randn(4, 24, 64)
y = torch.randint(0, 5, (4,))
for step in range(6):
    if step == 3:
        # warm-up done, tighten the memory policy
        model.ckpt_context = partial(create_selective_checkpoint_contexts, STRICT)
    loss = F.cross_entropy(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
