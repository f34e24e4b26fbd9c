"""E(n)-equivariant GNN potential for a small molecule: fit energies, then run a short
velocity-Verlet molecular dynamics rollout with forces from autograd."""
import torch
import torch.nn as nn

torch.manual_seed(0)

N_ATOMS = 10
ATOM_TYPES = torch.tensor([0, 0, 1, 1, 1, 2, 2, 2, 2, 2])  # C, C, N, N, N, H...
MASSES = torch.tensor([12.0, 12.0, 14.0, 14.0, 14.0, 1.0, 1.0, 1.0, 1.0, 1.0])


def reference_energy(pos):
    # toy pairwise Morse-like energy used as the "DFT" label
    d = (pos.unsqueeze(-2) - pos.unsqueeze(-3)).norm(dim=-1) + torch.eye(N_ATOMS)
    e = (1 - torch.exp(-1.5 * (d - 1.2))) ** 2
    return (e * (1 - torch.eye(N_ATOMS))).sum((-1, -2)) / 2


class EGCL(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.edge_mlp = nn.Sequential(nn.Linear(2 * hidden + 1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.node_mlp = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.coord_mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1, bias=False))

    def forward(self, h, x, src, dst):
        rel = x[:, src] - x[:, dst]
        d2 = rel.square().sum(-1, keepdim=True)
        m = self.edge_mlp(torch.cat([h[:, src], h[:, dst], d2], dim=-1))
        n = h.shape[1]
        agg = torch.zeros_like(h).index_put((torch.arange(h.shape[0]).unsqueeze(1), dst.unsqueeze(0)), m, accumulate=True)
        shift = torch.zeros_like(x).index_put((torch.arange(x.shape[0]).unsqueeze(1), dst.unsqueeze(0)),
                                              rel * self.coord_mlp(m), accumulate=True)
        x = x + shift / (n - 1)
        h = h + self.node_mlp(torch.cat([h, agg], dim=-1))
        return h, x


class EGNNPotential(nn.Module):
    def __init__(self, hidden=32, layers=3):
        super().__init__()
        self.embed = nn.Embedding(3, hidden)
        self.layers = nn.ModuleList(EGCL(hidden) for _ in range(layers))
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))
        src, dst = torch.meshgrid(torch.arange(N_ATOMS), torch.arange(N_ATOMS), indexing="ij")
        keep = src != dst
        self.register_buffer("src", src[keep])
        self.register_buffer("dst", dst[keep])

    def forward(self, z, pos):
        h = self.embed(z).expand(pos.shape[0], -1, -1)
        x = pos
        for layer in self.layers:
            h, x = layer(h, x, self.src, self.dst)
        return self.readout(h).sum((1, 2))


def main():
    base = torch.randn(N_ATOMS, 3) * 1.1
    train_pos = base + 0.15 * torch.randn(128, N_ATOMS, 3)
    train_e = reference_energy(train_pos)
    mean, std = train_e.mean(), train_e.std()
    model = EGNNPotential()
    energy_fn = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(3):
        for i in range(0, 128, 32):
            pred = energy_fn(ATOM_TYPES, train_pos[i:i + 32])
            loss = ((pred - (train_e[i:i + 32] - mean) / std) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    # MD in double precision for stable energy conservation
    model.double()
    model.requires_grad_(False)
    pos = base.double().unsqueeze(0).clone()
    vel = torch.zeros_like(pos)
    masses = MASSES.double().view(1, -1, 1)
    dt = 0.01

    def forces(p):
        p = p.detach().requires_grad_(True)
        e = energy_fn(ATOM_TYPES, p) * std.double() + mean.double()
        (g,) = torch.autograd.grad(e.sum(), p)
        return -g, e.detach()

    f, e0 = forces(pos)
    for step in range(10):
        vel = vel + 0.5 * dt * f / masses
        pos = pos + dt * vel
        f, e = forces(pos)
        vel = vel + 0.5 * dt * f / masses
    kinetic = 0.5 * (masses * vel.square()).sum()
    print(f"E0 {e0.item():.4f}  E_end {(e + kinetic).item():.4f}")


if __name__ == "__main__":
    main()
