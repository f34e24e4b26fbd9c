"""Monotone tabular regressor: the output layer is constrained to
non-negative weights once the features have warmed up.

We train unconstrained for a couple of epochs (the constraint makes early
training slow), then put a softplus parametrization on the head so the
prediction is monotone in the last hidden features. For deployment the
parametrization is baked into a plain weight.
"""

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import parametrize

torch.manual_seed(0)


class NonNegative(nn.Module):
    # weight = softplus(raw), so the head can only add evidence up
    def forward(self, raw):
        return F.softplus(raw)

    def right_inverse(self, w):
        # inverse softplus, clamped so negative starting weights map to ~0
        w = w.clamp_min(1e-4)
        return w + torch.log(-torch.expm1(-w))


class Regressor(nn.Module):
    def __init__(self, n_in=12, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.Sigmoid())
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


model = Regressor()
compiled = torch.compile(model, backend="aot_eager")

X = torch.randn(256, 12)
y = X[:, :4].sum(-1) + 0.1 * torch.randn(256)
loader = [(X[i:i + 64], y[i:i + 64]) for i in range(0, 256, 64)]


def make_opt():
    return torch.optim.Adam(model.parameters(), lr=1e-2)


opt = make_opt()
for epoch in range(5):
    if epoch == 2:
        parametrize.register_parametrization(model.head, "weight", NonNegative())
        opt = make_opt()  # parameters changed, rebuild the optimizer
    for xb, yb in loader:
        loss = F.mse_loss(compiled(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} mse {loss.item():.4f} min head w {model.head.weight.min().item():.4f}")

# export: bake the constrained weight into a plain parameter
parametrize.remove_parametrizations(model.head, "weight", leave_parametrized=True)
model.eval()
with torch.no_grad():
    print("final mse", F.mse_loss(compiled(X), y).item())
