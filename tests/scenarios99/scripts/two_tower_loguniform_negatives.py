"""Two-tower retrieval with sampled-softmax negatives drawn from a
log-uniform (Zipf-like) candidate sampler over popularity-ranked items,
with the sampling-probability correction.  The number of sampled negatives
is raised as training goes on (hard-negative budget schedule)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_USERS, N_ITEMS, DIM = 400, 1000, 24


class Tower(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.proj(self.emb(ids)), dim=-1)


user_tower = Tower(N_USERS, DIM)
item_tower = Tower(N_ITEMS, DIM)
params = list(user_tower.parameters()) + list(item_tower.parameters())
opt = torch.optim.Adam(params, lr=2e-3)


def log_uniform_sample(num_sampled, range_max):
    # P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)
    u = torch.rand(num_sampled)
    ids = (torch.exp(u * math.log(range_max + 1)) - 1).long().clamp_(0, range_max - 1)
    return ids


def log_uniform_logq(ids, range_max):
    k = ids.float()
    return torch.log(torch.log((k + 2) / (k + 1)) / math.log(range_max + 1))


@torch.compile(backend="aot_eager")
def sampled_softmax_step(users, pos_items, num_neg, temperature):
    neg = log_uniform_sample(num_neg, N_ITEMS)
    u = user_tower(users)
    p = item_tower(pos_items)
    n = item_tower(neg)
    pos_logit = (u * p).sum(-1, keepdim=True) / temperature
    neg_logit = u @ n.T / temperature - log_uniform_logq(neg, N_ITEMS)
    hit = pos_items.unsqueeze(1) == neg.unsqueeze(0)
    neg_logit = neg_logit.masked_fill(hit, -1e9)
    logits = torch.cat([pos_logit, neg_logit], dim=1)
    loss = F.cross_entropy(logits, torch.zeros(users.shape[0], dtype=torch.long))
    loss.backward()
    return loss


# interactions skewed towards popular (low-rank) items
users_all = torch.randint(0, N_USERS, (1024,))
items_all = log_uniform_sample(1024, N_ITEMS)

NEG_SCHEDULE = {0: 32, 2: 64, 4: 128}
num_neg = NEG_SCHEDULE[0]
for epoch in range(6):
    num_neg = NEG_SCHEDULE.get(epoch, num_neg)
    perm = torch.randperm(users_all.numel())
    for s in range(0, 1024, 256):
        idx = perm[s:s + 256]
        opt.zero_grad()
        loss = sampled_softmax_step(users_all[idx], items_all[idx], num_neg, 0.1)
        opt.step()
    print(f"epoch {epoch} negatives {num_neg} loss {loss.item():.4f}")
