import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_USERS, N_ITEMS, DIM = 200, 300, 16


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, user_ids, item_ids):
        u = self.users(user_ids)
        i = self.items(item_ids)
        return self.mlp(torch.cat([u, i], dim=-1)).squeeze(-1)


def clicks_loader(n, batch=32):
    # interactions logged by the web app, already torch.long
    g = torch.Generator().manual_seed(2)
    for _ in range(n):
        u = torch.randint(0, N_USERS, (batch,), generator=g)
        i = torch.randint(0, N_ITEMS, (batch,), generator=g)
        yield u, i, torch.randint(0, 2, (batch,), generator=g).float()


def mobile_export_loader(n, batch=32):
    # mobile export stores ids as int32 to halve the file size
    g = torch.Generator().manual_seed(3)
    for _ in range(n):
        u = torch.randint(0, N_USERS, (batch,), generator=g, dtype=torch.int32)
        i = torch.randint(0, N_ITEMS, (batch,), generator=g, dtype=torch.int32)
        yield u, i, torch.randint(0, 2, (batch,), generator=g).float()


def partner_feed_loader(n, batch=32):
    # partner feed: user ids come from their int32 hash table, item ids from our catalogue
    g = torch.Generator().manual_seed(4)
    for _ in range(n):
        u = torch.randint(0, N_USERS, (batch,), generator=g).to(torch.int32)
        i = torch.randint(0, N_ITEMS, (batch,), generator=g)
        yield u, i, torch.randint(0, 2, (batch,), generator=g).float()


model = TwoTower()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def train_step(user_ids, item_ids, label):
    logits = model(user_ids, item_ids)
    return F.binary_cross_entropy_with_logits(logits, label)


for epoch in range(3):
    sources = [clicks_loader(4), mobile_export_loader(4)]
    if epoch > 0:
        sources.append(partner_feed_loader(4))
    total = 0.0
    for batches in zip(*sources):
        for u, i, y in batches:
            loss = train_step(u, i, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
    print(f"epoch {epoch} mean loss {total / (4 * len(sources)):.4f}")
