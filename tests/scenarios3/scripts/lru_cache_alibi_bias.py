import functools
import math

import torch
from torch import nn

torch.manual_seed(0)


@functools.lru_cache(maxsize=8)
def alibi_bias(n_heads, seq_len):
    slopes = torch.tensor([2 ** (-8 * (h + 1) / n_heads) for h in range(n_heads)])
    dist = torch.arange(seq_len)[None, :] - torch.arange(seq_len)[:, None]
    return slopes[:, None, None] * dist.clamp(max=0)


class AlibiAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // self.heads) + alibi_bias(self.heads, t)
        causal = torch.ones(t, t, dtype=torch.bool).triu(1)
        attn = scores.masked_fill(causal, float("-inf")).softmax(-1)
        return self.out((attn @ v).transpose(1, 2).reshape(b, t, d))


model = AlibiAttention()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# sequence-length warm-up: short contexts first, then longer ones
for step, seq_len in enumerate([16, 16, 32, 48, 64]):
    x = torch.randn(4, seq_len, 32)
    loss = compiled(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} len {seq_len} loss {loss.item():.4f}")
