"""Pretrain a tiny encoder on packed rows: several short documents share a
row, positions restart at each document and attention stays inside it."""

import torch
from torch import nn


class PackedEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32, max_pos=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids, cu_seqlens):
        # positions restart at every document boundary
        n = ids.shape[0]
        position_ids = torch.empty(n, dtype=torch.long)
        doc = torch.empty(n, dtype=torch.long)
        for d in range(len(cu_seqlens) - 1):
            s, e = cu_seqlens[d], cu_seqlens[d + 1]
            position_ids[s:e] = torch.arange(e - s)
            doc[s:e] = d
        h = self.tok(ids) + self.pos(position_ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.t() / q.shape[-1] ** 0.5
        same_doc = doc[:, None] == doc[None, :]
        scores = scores.masked_fill(~same_doc, float("-inf"))
        return self.out(torch.softmax(scores, dim=-1) @ v)


def pack(doc_lengths, vocab=100):
    ids = torch.cat([torch.randint(1, vocab, (n,)) for n in doc_lengths])
    bounds = [0]
    for n in doc_lengths:
        bounds.append(bounds[-1] + n)
    return ids, bounds


def main():
    torch.manual_seed(0)
    model = PackedEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step_fn = torch.compile(model, backend="aot_eager")

    # the packer fills each 48-token row with however many documents fit
    rows = [[16, 16, 16], [20, 28], [16, 16, 16], [8, 12, 10, 18], [48]]
    for step, lengths in enumerate(rows):
        ids, cu_seqlens = pack(lengths)
        logits = step_fn(ids, cu_seqlens)
        loss = nn.functional.cross_entropy(logits[:-1], ids[1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} docs {len(lengths)} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
