import torch
from torch import nn

torch.manual_seed(0)


class RotaryAttention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dim = dim
        self.cache = {}  # seq_len -> (cos, sin)

    def rotary(self, seq_len):
        if seq_len not in self.cache:
            inv = 1.0 / (10000 ** (torch.arange(0, self.dim, 2).float() / self.dim))
            freqs = torch.outer(torch.arange(seq_len).float(), inv)
            self.cache[seq_len] = (freqs.cos(), freqs.sin())
        return self.cache[seq_len]

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        cos, sin = self.rotary(x.shape[1])
        cos, sin = cos.repeat(1, 2), sin.repeat(1, 2)
        q = q * cos + q.roll(self.dim // 2, -1) * sin
        k = k * cos + k.roll(self.dim // 2, -1) * sin
        return nn.functional.scaled_dot_product_attention(q, k, v)


model = RotaryAttention()
compiled = torch.compile(model, backend="aot_eager")

# the bucketing sampler yields sequences of 32 and 64 tokens
with torch.no_grad():
    for step, seq in enumerate([32, 32, 64, 64, 32, 64]):
        out = compiled(torch.randn(2, seq, 32))
        print(f"step {step} seq {seq} out {out.abs().mean().item():.4f}")
