"""Sliding-window evaluation sweep with FlexAttention: a local-attention LM
is scored on held-out batches under several window sizes; a new BlockMask is
built with create_block_mask for each window."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
VOCAB, D, HEADS, SEQ = 64, 32, 2, 64


def sliding_window(window):
    def mask_mod(b, h, q_idx, kv_idx):
        return (q_idx >= kv_idx) & (q_idx - kv_idx < window)
    return mask_mod


class LocalAttnLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.qkv = nn.Linear(D, 3 * D)
        self.o = nn.Linear(D, D)
        self.head = nn.Linear(D, VOCAB)

    def forward(self, ids, block_mask):
        b, t = ids.shape
        x = self.emb(ids)
        q, k, v = self.qkv(x).view(b, t, 3, HEADS, D // HEADS).permute(2, 0, 3, 1, 4)
        a = flex_attention(q, k, v, block_mask=block_mask)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, D))
        return self.head(x)


model = LocalAttnLM().eval()
compiled = torch.compile(model, backend="aot_eager")
held_out = [torch.randint(0, VOCAB, (2, SEQ + 1)) for _ in range(3)]

for w in (16, 32, 64):
    block_mask = create_block_mask(sliding_window(w), B=None, H=None,
                                   Q_LEN=SEQ, KV_LEN=SEQ, device="cpu", BLOCK_SIZE=16)
    total = 0.0
    with torch.no_grad():
        for ids in held_out:
            logits = compiled(ids[:, :-1], block_mask)
            total += F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1)).item()
    print(f"window {w}: mean loss {total / len(held_out):.3f}")
