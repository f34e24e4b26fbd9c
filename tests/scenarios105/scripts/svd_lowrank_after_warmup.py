"""Low-rank factorisation of a transformer-style MLP block after warmup.

Every FactorizableLinear starts dense; after the warmup epochs its weight is
replaced by two factors from torch.svd_lowrank (rank 16), and later the rank is
cut again to 8. The whole model is compiled.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FactorizableLinear(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_out, d_in) / d_in ** 0.5)
        self.bias = nn.Parameter(torch.zeros(d_out))
        self.factorized = False

    @torch.no_grad()
    def factorize(self, rank):
        w = self.weight if not self.factorized else self.u @ self.v
        u, s, v = torch.svd_lowrank(w, q=rank, niter=2)
        root = s.sqrt()
        self.u = nn.Parameter(u * root)            # (d_out, rank)
        self.v = nn.Parameter((v * root).t())      # (rank, d_in)
        self.factorized = True

    def forward(self, x):
        if self.factorized:
            return F.linear(F.linear(x, self.v), self.u, self.bias)
        return F.linear(x, self.weight, self.bias)


class Block(nn.Module):
    def __init__(self, d=64, hidden=128):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = FactorizableLinear(d, hidden)
        self.down = FactorizableLinear(hidden, d)
        self.head = nn.Linear(d, 4)

    def forward(self, x):
        h = x + self.down(F.gelu(self.up(self.norm(x))))
        return self.head(h.mean(dim=1))


model = Block()
compiled = torch.compile(model, backend="aot_eager")
RANK_SCHEDULE = {2: 16, 4: 8}


def make_opt():
    return torch.optim.AdamW(model.parameters(), lr=2e-3)


opt = make_opt()
batches = [(torch.randn(8, 10, 64), torch.randint(0, 4, (8,))) for _ in range(3)]
for epoch in range(6):
    if epoch in RANK_SCHEDULE:
        for lin in (model.up, model.down):
            lin.factorize(RANK_SCHEDULE[epoch])
        opt = make_opt()
        print(f"epoch {epoch}: factorised to rank {RANK_SCHEDULE[epoch]}")
    total = 0.0
    for x, y in batches:
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / len(batches):.4f}")
