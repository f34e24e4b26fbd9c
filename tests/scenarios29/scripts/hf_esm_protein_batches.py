"""Fine-tune a tiny ESM masked-LM on random protein sequences.

Sequences are grouped into batches and padded to the longest one in the
batch by the tokenizer-free collate below.
"""

import random

import torch
from transformers import EsmConfig, EsmForMaskedLM

random.seed(0)
torch.manual_seed(0)

AA = "ACDEFGHIKLMNPQRSTVWY"
cfg = EsmConfig(
    vocab_size=33,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=128,
    pad_token_id=1,
    mask_token_id=32,
    position_embedding_type="rotary",
)
esm = EsmForMaskedLM(cfg)
model = torch.compile(esm, backend="aot_eager")
opt = torch.optim.AdamW(esm.parameters(), lr=5e-4)


def encode(seq):
    return [0] + [4 + AA.index(a) for a in seq] + [2]


def collate(seqs):
    longest = max(len(s) for s in seqs) + 2
    ids = torch.full((len(seqs), longest), 1)
    for i, s in enumerate(seqs):
        enc = encode(s)
        ids[i, : len(enc)] = torch.tensor(enc)
    mask = (ids != 1).long()
    labels = ids.clone()
    pick = (torch.rand(ids.shape) < 0.15) & (mask == 1)
    labels[~pick] = -100
    ids = ids.masked_fill(pick, 32)
    return ids, mask, labels


proteins = ["".join(random.choice(AA) for _ in range(random.randint(20, 60))) for _ in range(40)]

esm.train()
for step in range(5):
    batch = proteins[step * 8 : (step + 1) * 8]
    ids, mask, labels = collate(batch)
    out = model(input_ids=ids, attention_mask=mask, labels=labels)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} len {ids.shape[1]} loss {out.loss.item():.4f}")
