"""Deep ensemble of small regressors evaluated in one vectorised call:
member weights are stacked with torch.func.stack_module_state and run under
torch.vmap. New members are trained and added to the ensemble over time."""
import copy

import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state

torch.manual_seed(0)


def make_member():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))


def target_fn(x):
    return torch.sin(x[:, :1] * 2) + 0.5 * x[:, 1:2] ** 2


def train_member(member, steps=40):
    opt = torch.optim.Adam(member.parameters(), lr=1e-2)
    for _ in range(steps):
        x = torch.randn(64, 8)
        loss = nn.functional.mse_loss(member(x), target_fn(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return member


base = copy.deepcopy(make_member()).to("meta")


def member_forward(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))


def ensemble_predict(params, buffers, x):
    preds = torch.vmap(member_forward, in_dims=(0, 0, None))(params, buffers, x)
    return preds.mean(0), preds.std(0)


predict = torch.compile(ensemble_predict, backend="aot_eager")

members = [train_member(make_member()) for _ in range(3)]
x_test = torch.randn(128, 8)
y_test = target_fn(x_test)

for round_idx in range(3):
    params, buffers = stack_module_state(members)
    with torch.no_grad():
        mean, std = predict(params, buffers, x_test)
    mse = nn.functional.mse_loss(mean, y_test).item()
    print(f"round {round_idx}: {len(members)} members, mse {mse:.4f}, mean std {std.mean().item():.4f}")
    members.append(train_member(make_member()))
