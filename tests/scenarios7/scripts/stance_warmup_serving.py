"""A small text-embedding service that warms up before taking traffic.

Startup runs one smoke test eagerly (so a broken checkpoint fails fast,
without paying for a compile), then warms the compiled encoder on the
request sizes we expect. Once warm, the service switches the compiler to
run anything it has not seen eagerly instead of stalling a request on a
compile. Requests are padded to the nearest bucket.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

VOCAB, DIM = 500, 64
BUCKETS = (16, 32)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.mix = nn.TransformerEncoderLayer(DIM, 4, 128, batch_first=True, dropout=0.0)

    def forward(self, ids):
        mask = ids.eq(0)
        h = self.mix(self.emb(ids), src_key_padding_mask=mask)
        keep = (~mask).unsqueeze(-1).float()
        return F.normalize((h * keep).sum(1) / keep.sum(1).clamp(min=1.0), dim=-1)


def pad_to_bucket(batch):
    longest = max(len(r) for r in batch)
    width = next(b for b in BUCKETS if b >= longest)
    ids = torch.zeros(len(batch), width, dtype=torch.long)
    for i, r in enumerate(batch):
        ids[i, : len(r)] = torch.tensor(r)
    return ids


def fake_requests(n, max_len):
    return [torch.randint(1, VOCAB, (int(torch.randint(3, max_len + 1, ())),)).tolist() for _ in range(n)]


encoder = Encoder().eval()
embed = torch.compile(encoder, backend="aot_eager")

with torch.no_grad():
    # smoke test: no compile, just check the weights produce unit vectors
    with torch.compiler.set_stance("force_eager"):
        out = embed(pad_to_bucket(fake_requests(2, 10)))
    assert torch.allclose(out.norm(dim=-1), torch.ones(2), atol=1e-4)

    # warm-up on the traffic we expect: batches of 8, both buckets
    for max_len in (12, 30):
        embed(pad_to_bucket(fake_requests(8, max_len)))

    torch.compiler.set_stance("eager_on_recompile")
    for i, (n, max_len) in enumerate([(8, 14), (8, 28), (3, 9), (8, 16), (5, 31), (8, 11)]):
        vecs = embed(pad_to_bucket(fake_requests(n, max_len)))
        print(f"request {i} batch {n} width {vecs.shape} sim {float(vecs[0] @ vecs[-1]):.3f}")
