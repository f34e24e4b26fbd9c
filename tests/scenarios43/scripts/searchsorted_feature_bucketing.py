import torch
import torch.nn as nn

torch.manual_seed(0)


class BucketedTabular(nn.Module):
    def __init__(self, n_features, n_buckets, dim=16):
        super().__init__()
        self.emb = nn.ModuleList(nn.Embedding(n_buckets + 1, dim) for _ in range(n_features))
        self.mlp = nn.Sequential(nn.Linear(n_features * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x, boundaries, right):
        parts = []
        for j, emb in enumerate(self.emb):
            idx = torch.searchsorted(boundaries[j], x[:, j].contiguous(), right=right)
            parts.append(emb(idx))
        return self.mlp(torch.cat(parts, dim=-1)).squeeze(-1)


DATASETS = [
    {"name": "housing", "right": False, "scale": 1.0},
    {"name": "credit", "right": True, "scale": 2.0},
    {"name": "energy", "right": False, "scale": 0.5},
]

model = BucketedTabular(n_features=3, n_buckets=7)
step = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for ds in DATASETS:
    x = torch.randn(256, 3) * ds["scale"]
    y = x.sum(-1)
    # quantile boundaries computed per dataset
    qs = torch.linspace(0, 1, 9)[1:-1]
    boundaries = torch.quantile(x, qs, dim=0).T.contiguous()
    for epoch in range(2):
        for i in range(0, 256, 64):
            pred = step(x[i:i + 64], boundaries, ds["right"])
            loss = ((pred - y[i:i + 64]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(ds["name"], f"loss {loss.item():.4f}")
