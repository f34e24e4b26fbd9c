"""Gradual unfreezing: train the head first, then add the backbone.

The optimizer step is compiled to fuse the Adam update. After the warm-up
stage the backbone's parameters join the optimizer as a second param group
with a smaller learning rate.
"""

import torch
from torch import nn

torch.manual_seed(0)

backbone = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 64), nn.GELU())
head = nn.Linear(64, 3)
for p in backbone.parameters():
    p.requires_grad_(False)

opt = torch.optim.Adam(head.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def opt_step():
    opt.step()


def make_data(n=512):
    x = torch.randn(n, 20)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    return x, y


x_all, y_all = make_data()
loss_fn = nn.CrossEntropyLoss()
HEAD_ONLY_EPOCHS = 2

for epoch in range(4):
    if epoch == HEAD_ONLY_EPOCHS:
        # stage two: unfreeze the backbone with a lower learning rate
        for p in backbone.parameters():
            p.requires_grad_(True)
        opt.add_param_group({"params": list(backbone.parameters()), "lr": 1e-4})
    total = 0.0
    for i in range(0, 512, 128):
        xb, yb = x_all[i : i + 128], y_all[i : i + 128]
        loss = loss_fn(head(backbone(xb)), yb)
        loss.backward()
        opt_step()
        opt.zero_grad()
        total += loss.item()
    print(f"epoch {epoch} groups {len(opt.param_groups)} loss {total / 4:.4f}")
