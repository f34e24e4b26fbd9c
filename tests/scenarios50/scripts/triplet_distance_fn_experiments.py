import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Embedder(nn.Module):
    def __init__(self, d_in=24, d_emb=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_emb))

    def forward(self, x):
        return self.net(x)


def triplet_step(model, anchor, positive, negative, distance_function, margin):
    a, p, n = model(anchor), model(positive), model(negative)
    return F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=distance_function, margin=margin
    )


step = torch.compile(triplet_step, backend="aot_eager")

EXPERIMENTS = [
    {"name": "euclid", "distance": nn.PairwiseDistance(p=2.0), "margin": 1.0},
    {"name": "cosine", "distance": lambda x, y: 1.0 - F.cosine_similarity(x, y), "margin": 1.0},
    {"name": "sq_euclid", "distance": lambda x, y: (x - y).pow(2).sum(-1), "margin": 1.0},
]


def sample_triplets(n=32, d=24, n_cls=4):
    centers = torch.randn(n_cls, d) * 2
    cls = torch.randint(0, n_cls, (n,))
    neg_cls = (cls + torch.randint(1, n_cls, (n,))) % n_cls
    anchor = centers[cls] + 0.5 * torch.randn(n, d)
    positive = centers[cls] + 0.5 * torch.randn(n, d)
    negative = centers[neg_cls] + 0.5 * torch.randn(n, d)
    return anchor, positive, negative


batches = [sample_triplets() for _ in range(4)]

for exp in EXPERIMENTS:
    torch.manual_seed(1)
    model = Embedder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        total = 0.0
        for a, p, n in batches:
            loss = step(model, a, p, n, exp["distance"], exp["margin"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
    print(f"{exp['name']}: final epoch loss {total / len(batches):.4f}")
