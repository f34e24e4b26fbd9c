import torch
import torch.nn as nn

torch.manual_seed(0)

RANKING_MODES = {
    "relevance": {"descending": True, "stable": False},
    "hard_negatives": {"descending": False, "stable": True},
    "relevance_tiebreak": {"descending": True, "stable": True},
}


class Scorer(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.d = nn.Linear(dim, dim)

    def forward(self, query, docs):
        return (self.d(docs) * self.q(query).unsqueeze(1)).sum(-1)


scorer = Scorer().eval()


@torch.compile(backend="aot_eager")
def rerank(query, docs, boost, k, descending, stable):
    scores = scorer(query, docs) + boost
    order = torch.argsort(scores, dim=-1, descending=descending, stable=stable)
    sorted_scores = torch.gather(scores, -1, order)
    return sorted_scores[:, :k], order[:, :k]


def main():
    requests = ["relevance", "relevance", "hard_negatives", "relevance",
                "relevance_tiebreak", "hard_negatives"]
    with torch.no_grad():
        for i, mode in enumerate(requests):
            cfg = RANKING_MODES[mode]
            query = torch.randn(2, 24)
            docs = torch.randn(2, 20, 24)
            # freshness boost, rounded so that ties happen
            boost = torch.randint(0, 3, (2, 20)).float() * 0.5
            top, idx = rerank(query, docs, boost, 5, cfg["descending"], cfg["stable"])
            print(i, mode, idx[0].tolist())


if __name__ == "__main__":
    main()
