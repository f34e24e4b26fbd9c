"""Training a regression MLP with a compiled NAdam step.

The first epochs run without regularization as a warm-up; from epoch 3 the
user adds weight decay to the optimizer's param groups and keeps training
(the usual "regularize once the fit is close" recipe).
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.NAdam(model.parameters(), lr=2e-3, weight_decay=0.0)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


x = torch.randn(256, 20)
y = x[:, :3].sum(dim=1, keepdim=True) + 0.1 * torch.randn(256, 1)
x_val = torch.randn(64, 20)
y_val = x_val[:, :3].sum(dim=1, keepdim=True)

WARMUP_EPOCHS = 3
WEIGHT_DECAY = 1e-2

history = []
for epoch in range(6):
    if epoch == WARMUP_EPOCHS:
        # warm-up done: switch regularization on for every group
        for group in opt.param_groups:
            group["weight_decay"] = WEIGHT_DECAY
    for i in range(0, 256, 64):
        loss = nn.functional.mse_loss(model(x[i:i + 64]), y[i:i + 64])
        opt.zero_grad(set_to_none=False)
        loss.backward()
        opt_step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(x_val), y_val).item()
    history.append(val)
    print(f"epoch {epoch} val {val:.4f} wd {opt.param_groups[0]['weight_decay']}")

print("best val", min(history))
