"""SchNet-style energy regression on batches of small random molecules."""
import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_ATOM_TYPES = 5
CUTOFF = 2.5


def random_molecule(gen):
    n = int(torch.randint(4, 10, (1,), generator=gen))
    z = torch.randint(0, NUM_ATOM_TYPES, (n,), generator=gen)
    pos = torch.randn(n, 3, generator=gen) * 1.2
    energy = (z.float() * 0.3).sum() + 0.1 * torch.randn(1, generator=gen).squeeze()
    return z, pos, energy


def collate(mols):
    zs, poss, batch, src, dst, ys = [], [], [], [], [], []
    offset = 0
    for g, (z, pos, y) in enumerate(mols):
        n = z.numel()
        pairs = torch.cartesian_prod(torch.arange(n), torch.arange(n))
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
        d = torch.nn.functional.pairwise_distance(pos[pairs[:, 0]], pos[pairs[:, 1]])
        pairs = pairs[d < CUTOFF]
        src.append(pairs[:, 0] + offset)
        dst.append(pairs[:, 1] + offset)
        zs.append(z)
        poss.append(pos)
        batch.append(torch.full((n,), g))
        ys.append(y)
        offset += n
    return (torch.cat(zs), torch.cat(poss), torch.cat(src), torch.cat(dst),
            torch.cat(batch), len(mols), torch.stack(ys))


class Interaction(nn.Module):
    def __init__(self, hidden, num_rbf):
        super().__init__()
        self.filter = nn.Sequential(nn.Linear(num_rbf, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.lin_in = nn.Linear(hidden, hidden)
        self.lin_out = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, h, rbf, cut, src, dst):
        msg = self.lin_in(h)[src] * self.filter(rbf) * cut.unsqueeze(-1)
        agg = torch.zeros_like(h).index_reduce_(0, dst, msg, "mean", include_self=False)
        return h + self.lin_out(agg)


class SchNetLite(nn.Module):
    def __init__(self, hidden=32, num_rbf=16, layers=3):
        super().__init__()
        self.embed = nn.Embedding(NUM_ATOM_TYPES, hidden)
        self.register_buffer("mu", torch.linspace(0.0, CUTOFF, num_rbf))
        self.gamma = 10.0
        self.blocks = nn.ModuleList(Interaction(hidden, num_rbf) for _ in range(layers))
        self.head = nn.Sequential(nn.Linear(hidden, hidden // 2), nn.SiLU(), nn.Linear(hidden // 2, 1))

    def forward(self, z, pos, src, dst, batch, num_graphs):
        d = (pos[src] - pos[dst]).norm(dim=-1)
        rbf = torch.exp(-self.gamma * (d.unsqueeze(-1) - self.mu) ** 2)
        cut = 0.5 * (torch.cos(d * torch.pi / CUTOFF) + 1.0)
        h = self.embed(z)
        for block in self.blocks:
            h = block(h, rbf, cut, src, dst)
        atom_e = self.head(h).squeeze(-1)
        out = torch.zeros(num_graphs, dtype=atom_e.dtype)
        return out.index_put_((batch,), atom_e, accumulate=True)


def main():
    gen = torch.Generator().manual_seed(1)
    dataset = [random_molecule(gen) for _ in range(44)]
    model = SchNetLite()
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    batch_size = 8
    for epoch in range(2):
        perm = torch.randperm(len(dataset), generator=gen).tolist()
        total = 0.0
        for i in range(0, len(dataset), batch_size):
            z, pos, src, dst, batch, n, y = collate([dataset[j] for j in perm[i:i + batch_size]])
            pred = compiled(z, pos, src, dst, batch, n)
            loss = torch.nn.functional.mse_loss(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.3f}")


if __name__ == "__main__":
    main()
