import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FEATURE_TABLES = {
    "user_history": {"rows": 200, "mode": "mean"},
    "item_tags": {"rows": 120, "mode": "sum"},
    "query_tokens": {"rows": 300, "mode": "max"},
}

DIM = 16


class BagPooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.ParameterDict(
            {name: nn.Parameter(torch.randn(t["rows"], DIM) * 0.1) for name, t in FEATURE_TABLES.items()}
        )

    def forward(self, weight, ids, offsets, mode):
        return F.embedding_bag(ids, weight, offsets, mode=mode)


pooler = BagPooler()
pool = torch.compile(pooler, backend="aot_eager")
head = nn.Sequential(nn.Linear(DIM * len(FEATURE_TABLES), 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adagrad(list(pooler.parameters()) + list(head.parameters()), lr=0.05)


def sample_bags(rows, batch=8, per_bag=5):
    ids = torch.randint(0, rows, (batch * per_bag,))
    offsets = torch.arange(0, batch * per_bag, per_bag)
    return ids, offsets


for step in range(3):
    pooled = []
    for name, table in FEATURE_TABLES.items():
        ids, offsets = sample_bags(table["rows"])
        pooled.append(pool(pooler.weights[name], ids, offsets, table["mode"]))
    logits = head(torch.cat(pooled, dim=1)).squeeze(-1)
    clicks = torch.randint(0, 2, (8,)).float()
    loss = F.binary_cross_entropy_with_logits(logits, clicks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: logloss {loss.item():.4f}")
