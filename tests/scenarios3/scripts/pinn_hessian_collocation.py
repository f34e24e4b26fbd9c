import torch
from torch import nn
from torch.func import functional_call, hessian, vmap

torch.manual_seed(0)

# physics-informed net for the 2-D Poisson equation  -laplace(u) = f  on [0, 1]^2
net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
params = dict(net.named_parameters())


def u(p, xy):
    return functional_call(net, p, (xy.unsqueeze(0),)).squeeze()


@torch.compile(backend="aot_eager")
def residual_loss(p, pts):
    hess = vmap(hessian(u, argnums=1), in_dims=(None, 0))(p, pts)
    laplace = hess.diagonal(dim1=-2, dim2=-1).sum(-1)
    f = 2 * torch.pi**2 * torch.sin(torch.pi * pts[:, 0]) * torch.sin(torch.pi * pts[:, 1])
    return ((-laplace - f) ** 2).mean()


opt = torch.optim.Adam(net.parameters(), lr=1e-3)
# adaptive refinement: more collocation points are sampled as training goes on
for step, n_points in enumerate([64, 64, 96, 96, 128]):
    pts = torch.rand(n_points, 2)
    loss = residual_loss(params, pts)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} points {n_points} loss {loss.item():.4f}")
