"""Metric learning for product images (random features): mined triplets per P-K batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_CLASSES, DIM = 12, 32


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, x):
        return F.normalize(self.body(x), dim=-1)


def pairwise_sq_dist(e):
    sq = (e * e).sum(1)
    return torch.addmm(sq.unsqueeze(1) + sq.unsqueeze(0), e, e.t(), alpha=-2.0).clamp(min=0)


def mine_semi_hard(emb, labels, margin):
    # anchor/positive pairs with a semi-hard negative, found on the detached embeddings
    with torch.no_grad():
        d = pairwise_sq_dist(emb)
        same = labels.unsqueeze(0) == labels.unsqueeze(1)
        a_idx, p_idx = torch.where(same & ~torch.eye(len(labels), dtype=torch.bool))
        d_ap = d[a_idx, p_idx].unsqueeze(1)
        d_an = d[a_idx]
        ok = (~same[a_idx]) & (d_an > d_ap) & (d_an < d_ap + margin)
        has = ok.any(1)
        n_idx = torch.where(ok, d_an, torch.full_like(d_an, float("inf"))).argmin(1)
    return a_idx[has], p_idx[has], n_idx[has]


@torch.compile(backend="aot_eager")
def triplet_loss(emb, a_idx, p_idx, n_idx, margin: float = 0.2):
    d_ap = (emb[a_idx] - emb[p_idx]).pow(2).sum(-1)
    d_an = (emb[a_idx] - emb[n_idx]).pow(2).sum(-1)
    return F.relu(d_ap - d_an + margin).mean()


model = Embedder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
centers = torch.randn(N_CLASSES, DIM)

for step in range(12):
    cls = torch.randperm(N_CLASSES)[:4]
    labels = cls.repeat_interleave(4)
    x = centers[labels] + 0.8 * torch.randn(len(labels), DIM)
    emb = model(x)
    a, p, n = mine_semi_hard(emb, labels, 0.2)
    if len(a) == 0:
        continue
    loss = triplet_loss(emb, a, p, n)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} triplets {len(a)} loss {loss.item():.4f}")
