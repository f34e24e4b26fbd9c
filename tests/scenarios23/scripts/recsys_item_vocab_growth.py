"""Two-tower retrieval model trained on a click stream.

Item embeddings use max_norm so popular items do not blow up the dot
product. New items show up in the catalogue part way through the stream,
so the item table is grown (old rows copied) when that happens.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

DIM = 16
N_USERS = 50


class TwoTower(nn.Module):
    def __init__(self, n_items):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM, max_norm=1.0)
        self.items = nn.Embedding(n_items, DIM, max_norm=1.0, padding_idx=0)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, user_ids, item_ids):
        u = self.proj(self.users(user_ids))
        v = self.items(item_ids)
        return u @ v.t()

    def grow_items(self, n_new):
        old = self.items
        new = nn.Embedding(old.num_embeddings + n_new, DIM, max_norm=1.0, padding_idx=0)
        with torch.no_grad():
            new.weight[: old.num_embeddings] = old.weight
        self.items = new


model = TwoTower(n_items=200)
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

n_items = 200
for day in range(3):
    if day > 0:
        # catalogue update: new items were added overnight
        model.grow_items(40)
        n_items += 40
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(4):
        users = torch.randint(0, N_USERS, (32,))
        items = torch.randint(1, n_items, (32,))
        scores = step_fn(users, items)
        # in-batch negatives
        loss = F.cross_entropy(scores, torch.arange(32))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"day {day} items {n_items} loss {loss.item():.4f}")
