"""DP-SGD with a decaying noise multiplier (Yu et al. style schedule).

Per-sample gradients of a linear-only model are computed Opacus-style from
the layer activations and the per-sample output gradients (written out by hand) with einsum, then
clipped to max_grad_norm and noised.  The privacy settings live in a
module-level dataclass that the training loop updates once per epoch.
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class PrivacyConfig:
    noise_multiplier: float = 1.2
    max_grad_norm: float = 1.0
    decay: float = 0.8


PRIV = PrivacyConfig()
lin1, lin2 = nn.Linear(8, 16), nn.Linear(16, 2)


def dp_step(x, y):
    h = lin1(x)
    a = F.relu(h)
    out = lin2(a)
    loss = F.cross_entropy(out, y, reduction="sum")
    # backprops of the summed loss w.r.t. the layer outputs, per sample
    g_out = out.softmax(-1) - F.one_hot(y, out.shape[-1]).to(out.dtype)
    g_h = (g_out @ lin2.weight) * (h > 0)
    per_sample = [
        torch.einsum("bi,bj->bij", g_h, x), g_h,
        torch.einsum("bi,bj->bij", g_out, a), g_out,
    ]
    norms = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in per_sample))
    scale = (PRIV.max_grad_norm / (norms + 1e-6)).clamp(max=1.0)
    grads = []
    for g in per_sample:
        s = (g * scale.view(-1, *([1] * (g.dim() - 1)))).sum(0)
        s = s + PRIV.noise_multiplier * PRIV.max_grad_norm * torch.randn_like(s)
        grads.append(s / x.shape[0])
    return loss.detach() / x.shape[0], grads


step = torch.compile(dp_step, backend="aot_eager")
params = [lin1.weight, lin1.bias, lin2.weight, lin2.bias]
X = torch.randn(128, 8)
Y = (X[:, :2].sum(1) > 0).long()
for epoch in range(3):
    for i in range(0, 128, 64):
        with torch.no_grad():
            loss, grads = step(X[i:i + 64], Y[i:i + 64])
            for p, g in zip(params, grads):
                p.sub_(0.3 * g)
    print(f"epoch {epoch}: loss {loss.item():.4f} sigma {PRIV.noise_multiplier:.3f}")
    PRIV.noise_multiplier = PRIV.noise_multiplier * PRIV.decay
