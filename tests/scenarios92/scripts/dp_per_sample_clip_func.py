"""DP-SGD style per-sample gradient clipping with torch.func.grad + vmap."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 32), nn.Tanh(), nn.Linear(32, 3))
params = {k: v.detach() for k, v in model.named_parameters()}


def sample_loss(p, x, y):
    out = functional_call(model, p, (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))


@torch.compile(backend="aot_eager")
def clipped_grad(p, xb, yb, max_norm, noise_mult):
    g = vmap(grad(sample_loss), in_dims=(None, 0, 0))(p, xb, yb)
    norms = torch.sqrt(sum(v.flatten(1).pow(2).sum(1) for v in g.values()))
    factor = (max_norm / (norms + 1e-6)).clamp(max=1.0)
    out = {}
    for k, v in g.items():
        s = (v * factor.view(-1, *[1] * (v.dim() - 1))).sum(0)
        s = s + noise_mult * max_norm * torch.randn_like(s)
        out[k] = s / xb.shape[0]
    return out


data_x = torch.randn(100, 20)
data_y = torch.randint(0, 3, (100,))
batch_size = 32
lr = 0.1
max_norm = 1.0
for epoch in range(2):
    perm = torch.randperm(100)
    for i in range(0, 100, batch_size):
        idx = perm[i:i + batch_size]
        g = clipped_grad(params, data_x[idx], data_y[idx], max_norm, 0.5)
        params = {k: v - lr * g[k] for k, v in params.items()}
    with torch.no_grad():
        acc = (functional_call(model, params, (data_x,)).argmax(1) == data_y).float().mean()
    print(f"epoch {epoch} acc {acc.item():.3f}")
