"""Search reranker service: score (query, document) pairs with a small MLP."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Reranker(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.q_proj = nn.Linear(dim, dim)
        self.d_proj = nn.Linear(dim, dim)
        self.score = nn.Sequential(nn.Linear(3 * dim, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, q, d):
        q = self.q_proj(q)
        d = self.d_proj(d)
        feats = torch.cat([q, d, q * d], dim=-1)
        return self.score(feats).squeeze(-1)


model = Reranker().eval()
score = torch.compile(model, backend="aot_eager")


def rerank(query, docs, k=5):
    with torch.no_grad():
        s = score(query.expand(docs.shape[0], -1), docs)
    return s.topk(k).indices.tolist()


# Warm-up with a few synthetic queries before taking traffic.
for _ in range(2):
    print("warmup:", rerank(torch.randn(1, 32), torch.randn(50, 32)))

# Serving mode: nothing is trained here any more.
model.requires_grad_(False)

for i in range(6):
    query = torch.randn(1, 32)
    docs = torch.randn(50, 32)
    print(f"query {i}: top5 {rerank(query, docs)}")
