"""Jacobian-regularised training with an EMA copy of the weights.

The regulariser penalises the Frobenius norm of the input Jacobian of the
network, computed with torch.func over the model called functionally with
a given parameter dict. During training it is computed with the live
parameters; every few steps the same function is used to report the
smoothness of the EMA weights.
"""

import torch
from torch import nn
from torch.func import functional_call, jacrev, vmap

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 3))
ema = {k: v.detach().clone() for k, v in model.named_parameters()}
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def jacobian_penalty(params, x):
    def f(xi):
        return functional_call(model, params, (xi,))

    jac = vmap(jacrev(f))(x)  # (batch, out, in)
    return jac.pow(2).sum(dim=(1, 2)).mean()


def update_ema(decay=0.9):
    with torch.no_grad():
        for k, v in model.named_parameters():
            ema[k].mul_(decay).add_(v, alpha=1 - decay)


x = torch.randn(64, 6)
y = torch.sin(x[:, :3]) + 0.05 * torch.randn(64, 3)

for step in range(9):
    params = dict(model.named_parameters())
    loss = nn.functional.mse_loss(model(x), y) + 1e-2 * jacobian_penalty(params, x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    update_ema()
    if step % 4 == 3:
        with torch.no_grad():
            smooth = jacobian_penalty(ema, x[:16])
        print(f"step {step} loss {loss.item():.4f} ema jacobian {smooth.item():.4f}")
    else:
        print(f"step {step} loss {loss.item():.4f}")
