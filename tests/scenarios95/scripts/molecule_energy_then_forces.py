"""Learned pairwise potential for small molecules (fixed atom count).

The energy model is compiled. It is fitted on energies only, then used in
a short MD run where forces come from autograd w.r.t. the positions.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

N_ATOMS = 12
N_TYPES = 4


class PairPotential(nn.Module):
    def __init__(self, dim=32, cutoff=4.0):
        super().__init__()
        self.cutoff = cutoff
        self.species = nn.Embedding(N_TYPES, dim)
        self.rbf_centres = nn.Parameter(torch.linspace(0.5, cutoff, 16), requires_grad=False)
        self.net = nn.Sequential(nn.Linear(16 + dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, pos, types):
        diff = pos.unsqueeze(2) - pos.unsqueeze(1)
        r = (diff.pow(2).sum(-1) + 1e-9).sqrt()
        rbf = torch.exp(-(r.unsqueeze(-1) - self.rbf_centres) ** 2)
        env = 0.5 * (torch.cos(torch.pi * r / self.cutoff) + 1) * (r < self.cutoff)
        env = env * (1 - torch.eye(pos.shape[1]))
        z = self.species(types)
        pair_feat = torch.cat([rbf, (z.unsqueeze(2) * z.unsqueeze(1))], dim=-1)
        e_pair = self.net(pair_feat).squeeze(-1) * env
        return 0.5 * e_pair.sum(dim=(1, 2))


model = PairPotential()
energy_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

types = torch.randint(0, N_TYPES, (8, N_ATOMS))
for step in range(4):
    pos = torch.randn(8, N_ATOMS, 3) * 1.5
    target = torch.randn(8)
    loss = (energy_fn(pos, types) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"fit step {step} loss {loss.item():.4f}")

# short MD with forces from the learned potential
model.requires_grad_(False)
pos = torch.randn(8, N_ATOMS, 3) * 1.5
vel = torch.zeros_like(pos)
for md_step in range(4):
    pos = pos.detach().requires_grad_(True)
    e = energy_fn(pos, types)
    forces = -torch.autograd.grad(e.sum(), pos)[0]
    vel = vel + 0.01 * forces
    pos = pos + 0.01 * vel
    print(f"md step {md_step} energy {e.mean().item():.4f}")
