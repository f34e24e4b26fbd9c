# Matryoshka dual encoder: train with nested-dim InfoNCE, then evaluate
# recall@k with embeddings truncated to several prefix sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, EMB, FULL_DIM = 300, 48, 64
MRL_DIMS = (64, 32, 16, 8)


class BagEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, EMB, padding_idx=0)
        self.proj = nn.Sequential(nn.Linear(EMB, 96), nn.GELU(), nn.Linear(96, FULL_DIM))

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (self.tok(ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.proj(pooled)


encoder = BagEncoder()
opt = torch.optim.AdamW(encoder.parameters(), lr=2e-3)


def mrl_loss(q, d):
    total = 0.0
    labels = torch.arange(q.shape[0])
    for dim in MRL_DIMS:
        qs = F.normalize(q[:, :dim], dim=-1)
        ds = F.normalize(d[:, :dim], dim=-1)
        total = total + F.cross_entropy(qs @ ds.T / 0.05, labels)
    return total / len(MRL_DIMS)


@torch.compile(backend="aot_eager")
def recall_at_k(q_full, d_full, dim, k):
    # truncate to the Matryoshka prefix and re-normalise
    q = F.normalize(q_full[:, :dim], dim=-1)
    d = F.normalize(d_full[:, :dim], dim=-1)
    sims = q @ d.T
    gold = torch.diagonal(sims).unsqueeze(1)
    rank = (sims > gold).sum(dim=1)
    return (rank < k).float().mean()


def make_pairs(n):
    docs = torch.randint(1, VOCAB, (n, 20))
    # queries are noisy sub-samples of their documents
    keep = torch.rand(n, 20) < 0.4
    queries = torch.where(keep, docs, torch.zeros_like(docs))[:, :12]
    queries[:, 0] = docs[:, 0]
    return queries, docs


train_q, train_d = make_pairs(256)
for epoch in range(2):
    perm = torch.randperm(256)
    for i in range(0, 256, 64):
        idx = perm[i:i + 64]
        loss = mrl_loss(encoder(train_q[idx]), encoder(train_d[idx]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

val_q, val_d = make_pairs(128)
encoder.eval()
with torch.no_grad():
    qe, de = encoder(val_q), encoder(val_d)
    for dim in MRL_DIMS:
        r1 = recall_at_k(qe, de, dim, 1)
        r10 = recall_at_k(qe, de, dim, 10)
        print(f"dim {dim:3d}  R@1 {r1.item():.3f}  R@10 {r10.item():.3f}")
