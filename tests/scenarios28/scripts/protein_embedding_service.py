"""Embedding protein sequences with a small ESM encoder.

A lab service turns incoming amino-acid sequences into per-protein embeddings
(mean over residues) for a downstream similarity search. Sequences come in
small batches as they are submitted; each batch is tokenized and padded to
its own longest sequence.
"""

import torch
from transformers import EsmConfig, EsmModel

torch.manual_seed(0)

AA = "LAGVESIKRDTPNQFYMHCW"
# ESM-style vocabulary: <cls> <pad> <eos> <unk> then residues, <mask> last
VOCAB = ["<cls>", "<pad>", "<eos>", "<unk>"] + list(AA) + ["X", "B", "U", "Z", "O", ".", "-", "<null_1>", "<mask>"]
IDX = {t: i for i, t in enumerate(VOCAB)}

config = EsmConfig(
    vocab_size=len(VOCAB),
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=256,
    pad_token_id=IDX["<pad>"],
    mask_token_id=IDX["<mask>"],
    position_embedding_type="rotary",
    token_dropout=True,
)
model = EsmModel(config, add_pooling_layer=False).eval()
encoder = torch.compile(model, backend="aot_eager")


def tokenize(seqs):
    longest = max(len(s) for s in seqs) + 2
    ids = torch.full((len(seqs), longest), IDX["<pad>"], dtype=torch.long)
    mask = torch.zeros(len(seqs), longest, dtype=torch.long)
    for i, s in enumerate(seqs):
        toks = [IDX["<cls>"]] + [IDX.get(c, IDX["<unk>"]) for c in s] + [IDX["<eos>"]]
        ids[i, : len(toks)] = torch.tensor(toks)
        mask[i, : len(toks)] = 1
    return ids, mask


def random_protein(n):
    return "".join(AA[j] for j in torch.randint(0, len(AA), (n,)).tolist())


submissions = [
    [random_protein(n) for n in (30, 24, 28, 30)],
    [random_protein(n) for n in (30, 19, 22, 25)],
    [random_protein(n) for n in (45, 40, 12, 33)],
    [random_protein(n) for n in (61, 58)],
    [random_protein(n) for n in (38, 16, 27)],
]

with torch.no_grad():
    for k, batch in enumerate(submissions):
        ids, mask = tokenize(batch)
        out = encoder(input_ids=ids, attention_mask=mask)
        m = mask.unsqueeze(-1).float()
        emb = (out.last_hidden_state * m).sum(1) / m.sum(1)
        print(f"batch {k}: {tuple(ids.shape)} -> {tuple(emb.shape)} norm {emb.norm(dim=1).mean():.3f}")
