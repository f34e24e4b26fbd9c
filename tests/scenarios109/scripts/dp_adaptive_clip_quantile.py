"""DP-SGD with adaptive clipping (Andrew et al., "Differentially Private
Learning with Adaptive Clipping").

Per-sample gradients come from torch.func.grad_and_value under torch.func.vmap
over a functional_call of a small model.  The clipping norm C follows the
geometric update towards the target quantile of the per-sample norms; the
update is done on the host from the noisy fraction of unclipped samples and
passed to the compiled private step as a Python float.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad_and_value, vmap

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(12, 16), nn.Tanh(), nn.Linear(16, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def sample_loss(p, b, x, y):
    out = functional_call(model, (p, b), (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))


per_sample = vmap(grad_and_value(sample_loss), in_dims=(None, None, 0, 0))


def private_grads(p, x, y, clip_norm, noise_multiplier):
    grads, losses = per_sample(p, buffers, x, y)
    flat = torch.cat([g.reshape(g.shape[0], -1) for g in grads.values()], dim=1)
    norms = flat.norm(dim=1)
    factor = (clip_norm / (norms + 1e-6)).clamp(max=1.0)
    noisy = {}
    for k, g in grads.items():
        clipped = (g * factor.view(-1, *([1] * (g.dim() - 1)))).sum(0)
        noise = torch.randn_like(clipped) * noise_multiplier * clip_norm
        noisy[k] = (clipped + noise) / x.shape[0]
    unclipped_frac = (norms <= clip_norm).float().mean()
    return noisy, losses.mean(), unclipped_frac


step_fn = torch.compile(private_grads, backend="aot_eager")

X = torch.randn(256, 12)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
BATCH, LR, SIGMA = 32, 0.5, 1.0
TARGET_Q, ETA_C, SIGMA_B = 0.5, 0.2, 4.0
clip = 1.0
for step in range(6):
    idx = torch.randint(0, X.shape[0], (BATCH,))
    g, loss, frac = step_fn(params, X[idx], Y[idx], clip, SIGMA)
    params = {k: params[k] - LR * g[k] for k in params}
    noisy_frac = frac.item() + torch.randn(()).item() * SIGMA_B / BATCH
    clip = round(clip * math.exp(-ETA_C * (noisy_frac - TARGET_Q)), 4)
    print(f"step {step}: loss {loss.item():.4f} unclipped {frac.item():.2f} next C {clip}")
