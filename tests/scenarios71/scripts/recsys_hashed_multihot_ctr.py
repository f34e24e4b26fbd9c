import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_BUCKETS = 4096
DIM = 16
FIELDS = ["genre", "tags", "recent_items"]


def hash_ids(raw, field_idx):
    # simple multiplicative feature hashing, one salt per field
    return (raw * 2654435761 + field_idx * 97) % NUM_BUCKETS


class HashedCTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(NUM_BUCKETS, DIM) * 0.05)
        self.dense = nn.Linear(4, DIM)
        n = len(FIELDS) + 1
        rows, cols = torch.triu_indices(n, n, offset=1)
        self.rows, self.cols = rows, cols
        self.head = nn.Sequential(nn.Linear(rows.numel() + DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def pool(self, ids, bag_of, batch):
        vecs = self.table[ids]
        out = torch.zeros(batch, DIM, dtype=vecs.dtype)
        return out.scatter_add(0, bag_of.unsqueeze(1).expand(-1, DIM), vecs)

    def forward(self, dense, field_ids, field_bags):
        batch = dense.shape[0]
        d = self.dense(dense)
        embs = [d] + [self.pool(i, b, batch) for i, b in zip(field_ids, field_bags)]
        x = torch.stack(embs, dim=1)
        inter = torch.bmm(x, x.transpose(1, 2))[:, self.rows, self.cols]
        return self.head(torch.cat([inter, d], dim=1)).squeeze(1)


def make_batch(batch, gen):
    dense = torch.randn(batch, 4, generator=gen)
    field_ids, field_bags = [], []
    for f in range(len(FIELDS)):
        lengths = torch.randint(1, 6, (batch,), generator=gen)
        raw = torch.randint(0, 10**6, (int(lengths.sum()),), generator=gen)
        field_ids.append(hash_ids(raw, f))
        field_bags.append(torch.arange(batch).repeat_interleave(lengths))
    labels = (torch.rand(batch, generator=gen) < 0.3).float()
    return dense, field_ids, field_bags, labels


model = HashedCTR()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
loss_fn = nn.BCEWithLogitsLoss()
compiled = torch.compile(model, backend="aot_eager")

gen = torch.Generator().manual_seed(1)
for step in range(12):
    dense, ids, bags, labels = make_batch(64, gen)
    logits = compiled(dense, ids, bags)
    loss = loss_fn(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.4f}")
