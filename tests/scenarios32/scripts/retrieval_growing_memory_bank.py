"""Nearest-neighbour lookup over a memory bank that fills up while serving.

Embeddings of documents indexed so far live in one tensor; each batch of
new documents is encoded and appended, and queries ask for their own
number of neighbours.
"""

import torch
from torch import nn

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)).eval()


@torch.compile(backend="aot_eager")
def search(queries, bank, k):
    q = nn.functional.normalize(encoder(queries), dim=-1)
    scores = q @ bank.T
    return torch.topk(scores, k, dim=-1)


bank = torch.empty(0, 16)
doc_ids = []


def index_documents(docs, first_id):
    # encode a batch of new documents and remember which ids they got
    emb = nn.functional.normalize(encoder(docs), dim=-1)
    doc_ids.extend(range(first_id, first_id + docs.shape[0]))
    return emb


# (documents indexed since the last batch of queries, neighbours wanted)
traffic = [
    (50, 5),
    (20, 5),
    (30, 10),
    (40, 3),
    (10, 10),
]

with torch.no_grad():
    for step, (new_docs, k) in enumerate(traffic):
        docs = torch.randn(new_docs, 32)
        bank = torch.cat([bank, index_documents(docs, len(doc_ids))], dim=0)
        queries = torch.randn(6, 32)
        top = search(queries, bank, k)
        hits = [[doc_ids[j] for j in row] for row in top.indices.tolist()]
        print(f"step {step}: bank {bank.shape[0]} docs, top-{k} best {top.values[:, 0].mean().item():.3f}")
        print(f"  first query -> docs {hits[0]}")
