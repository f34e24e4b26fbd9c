"""Sentence-embedding endpoint where each client picks how tokens are pooled.

The pooling strategy comes in with the request as a string and is parsed
into a str-valued Enum before it reaches the model.
"""

from enum import Enum

import torch
from torch import nn

torch.manual_seed(0)


class Pooling(str, Enum):
    MEAN = "mean"
    MAX = "max"
    CLS = "cls"


class Encoder(nn.Module):
    def __init__(self, vocab=1000, dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 96, batch_first=True, dropout=0.0)
        self.body = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)

    def forward(self, tokens, pooling):
        h = self.body(self.embed(tokens))
        if pooling == Pooling.MEAN:
            return h.mean(dim=1)
        if pooling == Pooling.MAX:
            return h.amax(dim=1)
        return h[:, 0]


encoder = Encoder().eval()
embed = torch.compile(encoder, backend="aot_eager")

# (client, pooling requested) in arrival order
requests = [
    ("search", "mean"), ("search", "mean"), ("dedup", "max"),
    ("search", "mean"), ("rerank", "cls"), ("dedup", "max"),
    ("rerank", "cls"), ("search", "mean"),
]

with torch.no_grad():
    for client, pooling_name in requests:
        tokens = torch.randint(0, 1000, (4, 20))
        vectors = embed(tokens, Pooling(pooling_name))
        print(f"{client:7s} {pooling_name:5s} -> {tuple(vectors.shape)} norm {vectors.norm(dim=-1).mean():.3f}")
