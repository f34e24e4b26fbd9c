"""A text classifier whose collate function returns a NamedTuple batch.

The user's collate pads each batch to its longest sentence and returns
`Batch(tokens, lengths, max_len)`; the compiled forward takes the whole
batch and uses `batch.max_len` to build the padding mask.
"""

from typing import NamedTuple

import torch
from torch import nn

torch.manual_seed(0)


class Batch(NamedTuple):
    tokens: torch.Tensor
    lengths: torch.Tensor
    max_len: int


def collate(sentences):
    max_len = max(len(s) for s in sentences)
    tokens = torch.zeros(len(sentences), 24, dtype=torch.long)
    for i, s in enumerate(sentences):
        tokens[i, : len(s)] = torch.tensor(s)
    lengths = torch.tensor([len(s) for s in sentences])
    return Batch(tokens, lengths, max_len)


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32)
        self.out = nn.Linear(32, 4)

    def forward(self, batch):
        pos = torch.arange(batch.max_len)
        mask = (pos[None, :] < batch.lengths[:, None]).float()
        emb = self.emb(batch.tokens[:, : batch.max_len])
        pooled = (emb * mask[..., None]).sum(1) / batch.lengths[:, None]
        return self.out(pooled)


model = torch.compile(BagClassifier(), backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(8):
    n = [5, 11, 7, 16, 9, 20, 13, 6][step]
    sents = [torch.randint(1, 100, (int(torch.randint(1, n + 1, ())),)).tolist() for _ in range(7)]
    sents.append(torch.randint(1, 100, (n,)).tolist())
    batch = collate(sents)
    loss = nn.functional.cross_entropy(model(batch), torch.randint(0, 4, (8,)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} max_len {batch.max_len:2d} loss {loss.item():.4f}")
