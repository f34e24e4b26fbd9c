"""TransE link prediction on a toy knowledge graph.

More negatives per positive as training goes on, as in the paper's
follow-ups: start cheap, get harder later.
"""

import torch
from torch import nn

torch.manual_seed(0)

N_ENT, N_REL, DIM = 200, 12, 32


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(N_ENT, DIM)
        self.rel = nn.Embedding(N_REL, DIM)
        nn.init.uniform_(self.ent.weight, -0.1, 0.1)
        nn.init.uniform_(self.rel.weight, -0.1, 0.1)

    def forward(self, h, r, t, neg_t):
        # h, r, t: (B,); neg_t: (B, K) corrupted tails
        hr = self.ent(h) + self.rel(r)
        pos = (hr - self.ent(t)).norm(p=1, dim=-1)
        neg = (hr.unsqueeze(1) - self.ent(neg_t)).norm(p=1, dim=-1)
        return torch.relu(1.0 + pos.unsqueeze(1) - neg).mean()


triples = torch.stack(
    [
        torch.randint(0, N_ENT, (2000,)),
        torch.randint(0, N_REL, (2000,)),
        torch.randint(0, N_ENT, (2000,)),
    ],
    dim=1,
)

model = TransE()
score = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def negatives_for(epoch):
    return [4, 4, 8, 8, 16, 16][epoch]


BATCH = 256
for epoch in range(6):
    k = negatives_for(epoch)
    perm = torch.randperm(len(triples))
    total = 0.0
    for i in range(0, 1024, BATCH):
        h, r, t = triples[perm[i : i + BATCH]].unbind(1)
        neg_t = torch.randint(0, N_ENT, (h.shape[0], k))
        loss = score(h, r, t, neg_t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.ent.weight.div_(model.ent.weight.norm(dim=1, keepdim=True).clamp(min=1.0))
        total += loss.item()
    print(f"epoch {epoch} negatives {k} loss {total / 4:.4f}")
