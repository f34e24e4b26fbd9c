"""Training a tiny encoder on variable-length sequences with a relative
position bias that the attention layer memoises per sequence length.
"""

import torch
from torch import nn

torch.manual_seed(0)


class RelPosAttention(nn.Module):
    def __init__(self, dim=32, heads=4, max_dist=16):
        super().__init__()
        self.heads = heads
        self.max_dist = max_dist
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.rel_bias = nn.Embedding(2 * max_dist + 1, heads)
        self._bucket_cache = []  # (length, bucket index tensor) pairs seen so far

    def buckets(self, n):
        for length, idx in self._bucket_cache:
            if length == n:
                return idx
        pos = torch.arange(n)
        idx = (pos[None, :] - pos[:, None]).clamp(-self.max_dist, self.max_dist) + self.max_dist
        self._bucket_cache.append((n, idx))
        return idx

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, d // self.heads).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        bias = self.rel_bias(self.buckets(n)).permute(2, 0, 1)
        attn = (q @ k.transpose(-1, -2)) / (d // self.heads) ** 0.5 + bias
        y = attn.softmax(-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, n, d))


model = nn.Sequential(RelPosAttention(), nn.LayerNorm(32), nn.Linear(32, 32))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

# sequence lengths as the length-bucketed sampler hands them out
for step, n in enumerate([12, 12, 20, 12, 20, 9, 20, 9]):
    x = torch.randn(4, n, 32)
    loss = (compiled(x) - x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} len {n} loss {loss.item():.4f}")
