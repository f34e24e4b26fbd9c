import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class AttnConfig:
    name: str
    dim: int
    n_heads: int

    @property
    def head_dim(self):
        return self.dim // self.n_heads

    @property
    def attn_scale(self):
        return 1.0 / math.sqrt(self.head_dim)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim)
        self.out = nn.Linear(cfg.dim, cfg.dim)
        self.norm = nn.LayerNorm(cfg.dim)

    def forward(self, x):
        b, t, d = x.shape
        h = self.norm(x)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        q = q.view(b, t, self.cfg.n_heads, -1).transpose(1, 2)
        k = k.view(b, t, self.cfg.n_heads, -1).transpose(1, 2)
        v = v.view(b, t, self.cfg.n_heads, -1).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.cfg.attn_scale)
        return x + self.out(a.transpose(1, 2).reshape(b, t, d))


def attention_forward(block, x):
    return block(x)


compiled_forward = torch.compile(attention_forward, backend="aot_eager")


def main():
    torch.manual_seed(0)
    configs = [AttnConfig("small", 64, 4), AttnConfig("wide", 64, 2)]
    for cfg in configs:
        block = Block(cfg)
        opt = torch.optim.AdamW(block.parameters(), lr=1e-3)
        for step in range(3):
            x = torch.randn(4, 16, cfg.dim)
            y = compiled_forward(block, x)
            loss = (y - x.roll(1, dims=1)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(cfg.name, step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
