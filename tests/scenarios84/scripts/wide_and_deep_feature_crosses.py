import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FIELDS = ["country", "device", "hour", "category"]
CARD = [20, 4, 24, 30]
HASH_BUCKETS = 1024


class WideAndDeep(nn.Module):
    def __init__(self):
        super().__init__()
        self.wide = nn.Embedding(HASH_BUCKETS, 1)
        self.embs = nn.ModuleList([nn.Embedding(c, 8) for c in CARD])
        self.deep = nn.Sequential(nn.Linear(8 * len(CARD), 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x, crosses):
        wide = 0
        for a, b in crosses:
            crossed = (x[:, a] * 1000003 + x[:, b] * 8191 + a * 31 + b) % HASH_BUCKETS
            wide = wide + self.wide(crossed).squeeze(-1)
        deep_in = torch.cat([e(x[:, j]) for j, e in enumerate(self.embs)], dim=-1)
        return wide + self.deep(deep_in).squeeze(-1)


def make_data(n):
    x = torch.stack([torch.randint(0, c, (n,)) for c in CARD], dim=1)
    y = (((x[:, 0] % 5) == (x[:, 2] % 5)) | ((x[:, 1] == 1) & (x[:, 3] < 10))).float()
    return x, y


# candidate cross sets evaluated in an ablation
EXPERIMENTS = {
    "country_x_hour": [(0, 2)],
    "plus_device_x_category": [(0, 2), (1, 3)],
    "all_pairs": [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
}

x, y = make_data(512)

for name, crosses in EXPERIMENTS.items():
    torch.manual_seed(1)
    model = WideAndDeep()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
    for epoch in range(2):
        for i in range(0, 512, 128):
            logits = cmodel(x[i:i + 128], crosses)
            loss = F.binary_cross_entropy_with_logits(logits, y[i:i + 128])
            opt.zero_grad()
            loss.backward()
            opt.step()
    acc = ((logits.detach() > 0).float() == y[i:i + 128]).float().mean()
    print(f"{name}: loss {loss.item():.4f} last batch acc {acc.item():.3f}")
