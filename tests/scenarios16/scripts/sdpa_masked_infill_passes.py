"""Tiny masked/causal language model with a hand-written attention block.

Training is causal with attention dropout; validation is causal without
dropout; every other epoch we also score an "infill" task where a span in
the middle is hidden and the model may look both ways except at the span.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

VOCAB, DIM, HEADS, SEQ = 200, 64, 4, 32


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, attn_drop):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_drop = attn_drop

    def forward(self, x, attn_mask=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        drop = self.attn_drop if self.training else 0.0
        if attn_mask is None:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=drop, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=drop)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.zeros(SEQ, DIM))
        self.attn = SelfAttention(DIM, HEADS, attn_drop=0.1)
        self.norm = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids, attn_mask=None):
        h = self.emb(ids) + self.pos[: ids.shape[1]]
        h = h + self.attn(self.norm(h), attn_mask)
        h = h + self.mlp(self.norm(h))
        return self.head(h)


model = TinyLM()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def infill_mask(t, start, end):
    # everyone can see everything except the hidden span
    allowed = torch.ones(t, t, dtype=torch.bool)
    allowed[:, start:end] = False
    allowed[torch.arange(t), torch.arange(t)] = True
    return allowed


for epoch in range(4):
    model.train()
    for _ in range(3):
        ids = torch.randint(0, VOCAB, (8, SEQ))
        logits = step_fn(ids)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        ids = torch.randint(0, VOCAB, (8, SEQ))
        val = F.cross_entropy(step_fn(ids)[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
        msg = f"epoch {epoch} train {loss.item():.3f} val {val.item():.3f}"
        if epoch % 2 == 1:
            mask = infill_mask(SEQ, 12, 18)
            logits = step_fn(ids, attn_mask=mask)
            fill = F.cross_entropy(logits[:, 12:18].reshape(-1, VOCAB), ids[:, 12:18].reshape(-1))
            msg += f" infill {fill.item():.3f}"
    print(msg)
