"""DLRM-style click model: dense bottom MLP, multi-hot categorical fields
pooled with nn.EmbeddingBag (flat ids + offsets, include_last_offset=True),
pairwise dot interactions picked with torch.tril_indices, top MLP."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_DENSE = 8
FIELD_VOCABS = [500, 300, 120]   # user tags, item genres, context keywords
EMB_DIM = 16


class DLRM(nn.Module):
    def __init__(self):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(N_DENSE, 32), nn.ReLU(), nn.Linear(32, EMB_DIM), nn.ReLU())
        self.bags = nn.ModuleList(
            nn.EmbeddingBag(v, EMB_DIM, mode="sum", include_last_offset=True) for v in FIELD_VOCABS
        )
        n_vec = 1 + len(FIELD_VOCABS)
        li, lj = torch.tril_indices(n_vec, n_vec, offset=-1)
        self.register_buffer("li", li, persistent=False)
        self.register_buffer("lj", lj, persistent=False)
        self.top = nn.Sequential(nn.Linear(EMB_DIM + li.numel(), 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, dense, ids, offsets):
        d = self.bottom(dense)
        pooled = [bag(i, o) for bag, i, o in zip(self.bags, ids, offsets)]
        vecs = torch.stack([d] + pooled, dim=1)              # (B, F+1, D)
        inter = torch.bmm(vecs, vecs.transpose(1, 2))        # (B, F+1, F+1)
        flat = inter[:, self.li, self.lj]
        return self.top(torch.cat([d, flat], dim=1)).squeeze(1)


def make_multihot(batch, vocab, max_len):
    lens = torch.randint(1, max_len + 1, (batch,))
    offsets = torch.zeros(batch + 1, dtype=torch.long)
    offsets[1:] = torch.cumsum(lens, 0)
    ids = torch.randint(0, vocab, (int(offsets[-1]),))
    return ids, offsets


def make_dataset(n):
    dense = torch.log1p(torch.rand(n, N_DENSE) * 100)
    labels = (torch.rand(n) < 0.25).float()
    return dense, labels


model = DLRM()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def train_step(dense, ids, offsets, labels):
    logits = model(dense, ids, offsets)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    loss.backward()
    return loss


dense_all, labels_all = make_dataset(100)
BATCH = 32
for epoch in range(2):
    for start in range(0, dense_all.shape[0], BATCH):
        dense = dense_all[start:start + BATCH]
        labels = labels_all[start:start + BATCH]
        b = dense.shape[0]
        ids, offsets = [], []
        for vocab, max_len in zip(FIELD_VOCABS, (6, 3, 4)):
            i, o = make_multihot(b, vocab, max_len)
            ids.append(i)
            offsets.append(o)
        opt.zero_grad()
        loss = train_step(dense, ids, offsets, labels)
        opt.step()
    print(f"epoch {epoch} last loss {loss.item():.4f}")
