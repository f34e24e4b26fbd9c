"""Masked-LM pretraining of a tiny DeBERTa-v2 on length-grouped batches.

Batches are grouped by length (like a length-grouped sampler) and padded to
the longest sequence of the group, so each group has its own width.
"""

import torch
from transformers import DebertaV2Config, DebertaV2ForMaskedLM

torch.manual_seed(0)

config = DebertaV2Config(
    vocab_size=256, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
    intermediate_size=128, max_position_embeddings=128, relative_attention=True,
    position_buckets=32, pos_att_type=["p2c", "c2p"],
)
model = DebertaV2ForMaskedLM(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

MASK_ID = 3


def make_batch(length, bs=8):
    ids = torch.randint(5, 256, (bs, length))
    labels = ids.clone()
    mask = torch.rand(bs, length) < 0.15
    ids[mask] = MASK_ID
    labels[~mask] = -100
    return ids, torch.ones_like(ids), labels


# group widths as they come out of the sampler
for step, length in enumerate([32, 32, 48, 24, 64, 40]):
    ids, attn, labels = make_batch(length)
    out = compiled(input_ids=ids, attention_mask=attn, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} len {length} loss {out.loss.item():.3f}")
