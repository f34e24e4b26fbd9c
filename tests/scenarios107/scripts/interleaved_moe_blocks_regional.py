"""A small decoder where every other block has a shared expert plus routed
experts (DeepSeek-style) and the others a dense MLP. Each block is compiled
separately (regional compilation) with nn.Module.compile."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

V, D, E, L = 64, 32, 4, 4


class RoutedFFN(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(D, 2 * D), nn.SiLU(), nn.Linear(2 * D, D))
        self.router = nn.Linear(D, E, bias=False)
        self.experts = nn.ModuleList(nn.Linear(D, D) for _ in range(E))

    def forward(self, x):
        p = self.router(x).softmax(-1)
        w, i = p.max(-1, keepdim=True)
        routed = sum((i == e).to(x.dtype) * w * f(x) for e, f in enumerate(self.experts))
        return self.shared(x) + routed


class Block(nn.Module):
    def __init__(self, use_moe):
        super().__init__()
        self.ln1 = nn.LayerNorm(D)
        self.ln2 = nn.LayerNorm(D)
        self.qkv = nn.Linear(D, 3 * D)
        self.ffn = RoutedFFN() if use_moe else nn.Sequential(
            nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        x = x + F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.ffn(self.ln2(x))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.blocks = nn.ModuleList(Block(use_moe=(i % 2 == 1)) for i in range(L))
        self.out = nn.Linear(D, V)

    def forward(self, ids):
        h = self.emb(ids)
        for blk in self.blocks:
            h = blk(h)
        return self.out(h)


model = Decoder()
for blk in model.blocks:
    blk.compile(backend="aot_eager")

opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    ids = torch.randint(0, V, (4, 17))
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss={loss.item():.4f}")
