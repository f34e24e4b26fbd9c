# Inverse problem: recover the unknown conductivity kappa in u_t = kappa u_xx
# from a physics-informed network. Sensor readings arrive only after a few
# epochs of physics-only pre-training; then they are added to the batch dict.
import math

import torch
from torch import nn
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
TRUE_KAPPA = 0.3


class HeatNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(),
                                 nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))
        self.log_kappa = nn.Parameter(torch.tensor(0.0))

    def forward(self, xt):
        return self.net(xt).squeeze(-1)


net = HeatNet()


def exact(xt):
    return torch.exp(-TRUE_KAPPA * math.pi ** 2 * xt[..., 1]) * torch.sin(math.pi * xt[..., 0])


def u_pt(p, xt):
    return functional_call(net, p, (xt.unsqueeze(0),)).squeeze(0)


def heat_residual(p, xt):
    g = grad(u_pt, argnums=1)(p, xt)
    u_xx = grad(lambda q, z: grad(u_pt, argnums=1)(q, z)[0], argnums=1)(p, xt)[0]
    return g[1] - p["log_kappa"].exp() * u_xx


def losses(p, batch):
    out = {}
    out["pde"] = vmap(heat_residual, in_dims=(None, 0))(p, batch["colloc"]).pow(2).mean()
    ic = batch["initial"]
    out["ic"] = (functional_call(net, p, (ic,)) - torch.sin(math.pi * ic[:, 0])).pow(2).mean()
    if "sensors" in batch:
        out["data"] = (functional_call(net, p, (batch["sensors"],)) - batch["readings"]).pow(2).mean()
    return out


loss_fn = torch.compile(losses, backend="aot_eager")

params = dict(net.named_parameters())
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
x0 = torch.rand(64)
initial = torch.stack([x0, torch.zeros_like(x0)], -1)
sensors = torch.rand(48, 2)
readings = exact(sensors) + 0.01 * torch.randn(48)

for epoch in range(6):
    batch = {"colloc": torch.rand(128, 2), "initial": initial}
    if epoch >= 2:
        batch["sensors"] = sensors
        batch["readings"] = readings
    for it in range(3):
        terms = loss_fn(params, batch)
        total = sum(terms.values())
        opt.zero_grad()
        total.backward()
        opt.step()
    print(f"epoch {epoch} " + " ".join(f"{k}={v.item():.4f}" for k, v in terms.items())
          + f" kappa={net.log_kappa.exp().item():.3f}")
