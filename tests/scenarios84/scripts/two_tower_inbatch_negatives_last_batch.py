import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(0)

N_USERS, N_ITEMS, DIM = 200, 300, 16


class Tower(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, 32)
        self.mlp = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = Tower(N_USERS, DIM)
        self.item = Tower(N_ITEMS, DIM)

    def forward(self, users, items, log_q):
        u = self.user(users)
        v = self.item(items)
        logits = u @ v.t() / 0.1
        logits = logits - log_q.unsqueeze(0)
        labels = torch.arange(users.shape[0])
        return F.cross_entropy(logits, labels)


# interactions with a popularity skew
item_weights = 1.0 / torch.arange(1, N_ITEMS + 1).float() ** 0.8
items = torch.multinomial(item_weights, 1000, replacement=True)
users = torch.randint(0, N_USERS, (1000,))
item_prob = torch.bincount(items, minlength=N_ITEMS).float() + 1.0
item_prob = item_prob / item_prob.sum()

ds = TensorDataset(users, items)
sampler = WeightedRandomSampler(torch.ones(len(ds)), num_samples=len(ds), replacement=False,
                                generator=torch.Generator().manual_seed(0))
loader = DataLoader(ds, batch_size=128, sampler=sampler)

model = TwoTower()
step = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)

for epoch in range(2):
    total = 0.0
    for u, i in loader:
        log_q = torch.log(item_prob[i])
        loss = step(u, i, log_q)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(u)
    print(f"epoch {epoch} loss {total / len(ds):.4f}")
