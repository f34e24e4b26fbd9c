# 2-D Poisson problem  -lap(u) = f  on the unit square with u = 0 on the boundary.
# The boundary penalty weight is annealed from large to small over training.
import math

import torch
from torch import nn
from torch.func import vmap, functional_call

torch.manual_seed(0)


class Field(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(),
                                 nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))

    def forward(self, xy):
        return self.net(xy).squeeze(-1)


field = Field()


def source(xy):
    return 2 * math.pi ** 2 * torch.sin(math.pi * xy[..., 0]) * torch.sin(math.pi * xy[..., 1])


def u_scalar(p, xy):
    return functional_call(field, p, (xy.unsqueeze(0),)).squeeze(0)


def laplacian(p, xy):
    h = torch.func.jacfwd(torch.func.jacrev(u_scalar, argnums=1), argnums=1)(p, xy)
    return h.diagonal().sum()


def training_loss(p, interior, boundary, bc_weight):
    lap = vmap(laplacian, in_dims=(None, 0))(p, interior)
    pde = (-lap - source(interior)).pow(2).mean()
    bc = functional_call(field, p, (boundary,)).pow(2).mean()
    return pde + bc_weight * bc, pde.detach(), bc.detach()


step_fn = torch.compile(training_loss, backend="aot_eager")

interior = torch.rand(256, 2)
edge = torch.rand(32)
boundary = torch.cat([
    torch.stack([edge, torch.zeros_like(edge)], -1),
    torch.stack([edge, torch.ones_like(edge)], -1),
    torch.stack([torch.zeros_like(edge), edge], -1),
    torch.stack([torch.ones_like(edge), edge], -1),
])

params = dict(field.named_parameters())
opt = torch.optim.Adam(field.parameters(), lr=2e-3)
bc_weight = 100.0
for epoch in range(6):
    for it in range(3):
        loss, pde, bc = step_fn(params, interior, boundary, bc_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} w_bc={bc_weight:.2f} pde={pde.item():.4f} bc={bc.item():.5f}")
    bc_weight = max(1.0, bc_weight * 0.5)
