"""Click-through model over raw 64-bit user / item ids hashed into bucket
tables (xor-shift hash, remainder by the bucket count).  After each day the
job checks the bucket occupancy; when too many ids collide the table is
doubled: rows are tiled with Embedding.from_pretrained so the old buckets
keep their vectors."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class HashedEmbedding(nn.Module):
    def __init__(self, num_buckets, dim):
        super().__init__()
        self.num_buckets = num_buckets
        self.table = nn.Embedding(num_buckets, dim)

    def bucket(self, raw_ids):
        h = raw_ids ^ (raw_ids >> 17)
        h = h ^ (h << 5)
        return torch.remainder(h, self.num_buckets)

    def forward(self, raw_ids):
        return self.table(self.bucket(raw_ids))

    def double(self):
        w = self.table.weight.detach().repeat(2, 1)
        self.table = nn.Embedding.from_pretrained(w, freeze=False)
        self.num_buckets *= 2


class CTRModel(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.user = HashedEmbedding(64, dim)
        self.item = HashedEmbedding(64, dim)
        self.mlp = nn.Sequential(nn.Linear(3 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, user_ids, item_ids):
        u, i = self.user(user_ids), self.item(item_ids)
        return self.mlp(torch.cat([u, i, u * i], dim=-1)).squeeze(-1)


def day_of_traffic(day, n=256):
    # more distinct users show up every day
    users = torch.randint(0, 10**9, (200 * (day + 1),))
    items = torch.randint(0, 10**9, (150,))
    u = users[torch.randint(0, users.numel(), (n,))]
    i = items[torch.randint(0, items.numel(), (n,))]
    y = (torch.rand(n) < 0.3).float()
    return u, i, y


model = CTRModel()
compiled = torch.compile(model, backend="aot_eager")


def occupancy(emb, raw_ids):
    distinct = torch.unique(raw_ids).numel()
    used = torch.unique(emb.bucket(torch.unique(raw_ids))).numel()
    return distinct / max(used, 1)


for day in range(4):
    users, items, labels = day_of_traffic(day)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(0, users.numel(), 64):
        logits = compiled(users[step:step + 64], items[step:step + 64])
        loss = F.binary_cross_entropy_with_logits(logits, labels[step:step + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    ratio = occupancy(model.user, users)
    print(f"day {day} loss {loss.item():.4f} ids/bucket {ratio:.2f} buckets {model.user.num_buckets}")
    if ratio > 1.5:
        model.user.double()
