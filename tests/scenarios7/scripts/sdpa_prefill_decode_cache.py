"""Greedy decoding with a tiny hand-written decoder and a preallocated KV cache.

The prompt goes through in one causal pass (prefill); after that each new
token attends to everything written to the cache so far through a boolean
mask over the cache slots. The decoder step is compiled once and used for
both phases.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

VOCAB, DIM, HEADS, MAX_LEN = 128, 64, 4, 32


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(MAX_LEN, DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, ids, positions, k_cache, v_cache, attn_mask=None, is_causal=False):
        b, t = ids.shape
        h = self.tok(ids) + self.pos(positions)
        q, k, v = self.qkv(h).view(b, t, 3, HEADS, DIM // HEADS).permute(2, 0, 3, 1, 4)
        k_cache.index_copy_(2, positions, k)
        v_cache.index_copy_(2, positions, v)
        if is_causal:
            # prefill: attend only within the prompt
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            out = F.scaled_dot_product_attention(q, k_cache, v_cache, attn_mask=attn_mask)
        h = h + self.proj(out.transpose(1, 2).reshape(b, t, DIM))
        h = h + self.mlp(h)
        return self.lm_head(h[:, -1])


model = TinyDecoder().eval()
step = torch.compile(model, backend="aot_eager")

prompt = torch.randint(0, VOCAB, (1, 9))
k_cache = torch.zeros(1, HEADS, MAX_LEN, DIM // HEADS)
v_cache = torch.zeros(1, HEADS, MAX_LEN, DIM // HEADS)
filled = torch.zeros(MAX_LEN, dtype=torch.bool)

with torch.no_grad():
    n = prompt.shape[1]
    logits = step(prompt, torch.arange(n), k_cache, v_cache, is_causal=True)
    filled[:n] = True
    out = [int(logits.argmax(-1))]
    for pos in range(n, n + 10):
        filled[pos] = True
        logits = step(torch.tensor([[out[-1]]]), torch.tensor([pos]), k_cache, v_cache, attn_mask=filled[None, None, None, :])
        out.append(int(logits.argmax(-1)))
print("generated", out)
