"""Sequence packing: several documents are concatenated into one row of
fixed length and attention is restricted to each document (block-diagonal
mask built from the list of document lengths inside the compiled step)."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
VOCAB, D, ROW = 64, 32, 32


class PackedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(ROW, D)
        self.attn = nn.MultiheadAttention(D, 4, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))
        self.out = nn.Linear(D, VOCAB)

    def forward(self, ids, doc_lens):
        seg = torch.cat([torch.full((n,), i) for i, n in enumerate(doc_lens)])
        pos = torch.cat([torch.arange(n) for n in doc_lens])
        same_doc = seg[:, None] == seg[None, :]
        causal = torch.ones(ROW, ROW, dtype=torch.bool).tril()
        blocked = ~(same_doc & causal)
        x = self.emb(ids) + self.pos(pos)[None]
        a, _ = self.attn(x, x, x, attn_mask=blocked, need_weights=False)
        x = x + a
        return self.out(x + self.ff(x))


def pack(stream):
    """Greedily take documents until the row is full; last one is truncated."""
    lens, total = [], 0
    while total < ROW:
        n = min(stream.pop(0), ROW - total)
        lens.append(n)
        total += n
    return lens


model = PackedEncoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")

doc_stream = [random.randint(6, 20) for _ in range(60)]
for step in range(6):
    lens = pack(doc_stream)
    ids = torch.randint(0, VOCAB, (2, ROW + 1))
    logits = step_fn(ids[:, :-1], lens)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} docs {lens} loss {loss.item():.3f}")
