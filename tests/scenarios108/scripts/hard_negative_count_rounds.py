# Dual encoder trained in mining rounds: after each round the number of mined
# hard negatives per query goes up (1, 3, 7), mined from the current model.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, CORPUS = 400, 32, 192


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, DIM, mode="mean")
        self.out = nn.Linear(DIM, DIM)

    def forward(self, ids):
        return F.normalize(self.out(self.emb(ids)), dim=-1)


q_tower, d_tower = Tower(), Tower()
params = list(q_tower.parameters()) + list(d_tower.parameters())
opt = torch.optim.Adam(params, lr=3e-3)


@torch.compile(backend="aot_eager")
def hard_negative_loss(q, pos, negs, scale):
    # q: (B, D), pos: (B, D), negs: (B, n_neg, D)
    pos_score = torch.linalg.vecdot(q, pos).unsqueeze(1)
    neg_score = torch.linalg.vecdot(q.unsqueeze(1), negs)
    inbatch = q @ pos.T
    inbatch = inbatch.masked_fill(torch.eye(q.shape[0], dtype=torch.bool), float("-inf"))
    logits = torch.cat([pos_score, neg_score, inbatch], dim=1) * scale
    return F.cross_entropy(logits, torch.zeros(q.shape[0], dtype=torch.long))


corpus = torch.randint(0, VOCAB, (CORPUS, 16))
queries = corpus[:, :6].clone()
queries[:, 3:] = torch.randint(0, VOCAB, (CORPUS, 3))


def mine(n_neg):
    with torch.no_grad():
        qe, de = q_tower(queries), d_tower(corpus)
        sims = qe @ de.T
        sims.fill_diagonal_(-1e4)
        return sims.argsort(dim=1, descending=True)[:, :n_neg]


for rnd, n_neg in enumerate([1, 3, 7]):
    mined = mine(n_neg)
    perm = torch.randperm(CORPUS)
    for i in range(0, CORPUS, 48):
        idx = perm[i:i + 48]
        q = q_tower(queries[idx])
        pos = d_tower(corpus[idx])
        negs = d_tower(corpus[mined[idx]].flatten(0, 1)).view(len(idx), n_neg, DIM)
        loss = hard_negative_loss(q, pos, negs, 20.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"round {rnd} n_neg={n_neg} loss={loss.item():.4f}")
