import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class QueryEncoder(nn.Module):
    def __init__(self, vocab=100, dim=24):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        return self.proj(self.emb(ids))


class VectorIndex:
    """A small in-memory index with its own similarity settings."""

    def __init__(self, name, n_docs, dim, eps):
        self.name = name
        self.docs = torch.randn(n_docs, dim)
        self.eps = eps
        self.dim = -1

    def settings(self):
        return {"dim": self.dim, "eps": self.eps}


encoder = QueryEncoder().eval()


@torch.compile(backend="aot_eager")
def search(ids, docs, dim, eps, k=3):
    q = encoder(ids)
    sims = F.cosine_similarity(q.unsqueeze(1), docs.unsqueeze(0), dim=dim, eps=eps)
    scores, idx = sims.topk(k, dim=-1)
    return scores, idx


def main():
    indexes = [
        VectorIndex("wiki", 64, 24, eps=1e-8),
        VectorIndex("faq", 64, 24, eps=1e-6),
        VectorIndex("code", 64, 24, eps=1e-4),
    ]
    requests = [(indexes[i % 3], torch.randint(0, 100, (4, 6))) for i in range(9)]
    with torch.no_grad():
        for index, ids in requests:
            s = index.settings()
            scores, idx = search(ids, index.docs, s["dim"], s["eps"])
            print(index.name, idx[0].tolist(), f"{scores.mean().item():.4f}")


if __name__ == "__main__":
    main()
