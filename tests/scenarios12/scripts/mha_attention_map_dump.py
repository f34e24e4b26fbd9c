"""An intent classifier whose attention maps are dumped for inspection.

Training batches are padded, so the encoder gets a key padding mask and no
attention weights. Every few steps the user runs a fixed probe set of
16 full-length utterances (no padding) through the same compiled encoder
and asks for the per-head attention maps to save them for a notebook.
"""

import torch
from torch import nn

torch.manual_seed(0)

VOCAB, DIM, HEADS, N_INTENTS = 500, 64, 4, 6


class IntentEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.attn = nn.MultiheadAttention(DIM, HEADS, batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, N_INTENTS)

    def forward(self, tokens, pad_mask=None, return_maps=False):
        x = self.emb(tokens)
        h, maps = self.attn(
            x, x, x,
            key_padding_mask=pad_mask,
            need_weights=return_maps,
            average_attn_weights=not return_maps,
        )
        h = self.norm(x + h)
        return self.head(h.mean(dim=1)), maps


encoder = IntentEncoder()
model = torch.compile(encoder, backend="aot_eager")
opt = torch.optim.AdamW(encoder.parameters(), lr=1e-3)

probe = torch.randint(1, VOCAB, (16, 20))
saved_maps = []
for step in range(8):
    lengths = torch.randint(5, 20, (16,))
    tokens = torch.randint(1, VOCAB, (16, 20))
    pad = torch.arange(20)[None, :] >= lengths[:, None]
    tokens = tokens.masked_fill(pad, 0)
    labels = torch.randint(0, N_INTENTS, (16,))
    logits, _ = model(tokens, pad_mask=pad)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

    if step % 3 == 2:
        _, maps = model(probe, return_maps=True)
        saved_maps.append(maps[0].detach())
        print(f"  saved attention maps {tuple(maps.shape)}")
