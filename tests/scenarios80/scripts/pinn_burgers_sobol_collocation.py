# Physics-informed network for the viscous Burgers equation u_t + u u_x = nu u_xx
# on x in [-1, 1], t in [0, 1], with collocation points drawn from a Sobol sequence
# and redrawn (with a growing budget) every epoch.
import math

import torch
from torch import nn
from torch.func import grad_and_value, vmap

torch.manual_seed(0)
NU = 0.01 / math.pi


class MLP(nn.Module):
    def __init__(self, width=32, depth=3):
        super().__init__()
        layers, d = [], 2
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Tanh()]
            d = width
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, xt):
        return self.net(xt).squeeze(-1)


model = MLP()
params = dict(model.named_parameters())


def u_point(p, xt):
    return torch.func.functional_call(model, p, (xt.unsqueeze(0),)).squeeze(0)


def du_point(p, xt):
    g, u = grad_and_value(u_point, argnums=1)(p, xt)
    return g[0], (g, u)


def residual_terms(p, xt):
    u_xx_row, (u_x, (g, u)) = grad_and_value(du_point, argnums=1, has_aux=True)(p, xt)
    u_t = g[1]
    u_xx = u_xx_row[0]
    return u_t + u * u_x - NU * u_xx


def pinn_loss(p, colloc, x0, u0, xb):
    res = vmap(residual_terms, in_dims=(None, 0))(p, colloc)
    ic = torch.func.functional_call(model, p, (x0,)) - u0
    bc = torch.func.functional_call(model, p, (xb,))
    return res.pow(2).mean() + ic.pow(2).mean() + bc.pow(2).mean()


compiled_loss = torch.compile(pinn_loss, backend="aot_eager")

sobol = torch.quasirandom.SobolEngine(dimension=2, scramble=True, seed=0)


def draw_collocation(n):
    s = sobol.draw(n)
    return torch.stack([2.0 * s[:, 0] - 1.0, s[:, 1]], dim=-1)


x_ic = torch.linspace(-1, 1, 64)
x0 = torch.stack([x_ic, torch.zeros_like(x_ic)], dim=-1)
u0 = -torch.sin(math.pi * x_ic)
t_bc = torch.linspace(0, 1, 32)
xb = torch.cat([torch.stack([-torch.ones_like(t_bc), t_bc], -1),
                torch.stack([torch.ones_like(t_bc), t_bc], -1)])

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
budget = [128, 128, 192, 256, 384]
for epoch, n_colloc in enumerate(budget):
    colloc = draw_collocation(n_colloc)
    for step in range(4):
        loss = compiled_loss(params, colloc, x0, u0, xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} n_colloc={n_colloc} loss={loss.item():.4f}")
