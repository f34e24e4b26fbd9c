"""Training a tabular regressor with accelerate on CPU.

Accumulates gradients over two batches with `accelerator.accumulate`, then
evaluates the unwrapped model under `accelerator.autocast()`.
"""

import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

accelerator = Accelerator(cpu=True, gradient_accumulation_steps=2, mixed_precision="bf16")

features = torch.randn(300, 12)
target = features[:, :3].sum(dim=1, keepdim=True) + 0.1 * torch.randn(300, 1)
train_ds = TensorDataset(features[:230], target[:230])
val_ds = TensorDataset(features[230:], target[230:])

net = nn.Sequential(
    nn.Linear(12, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1)
)
net = torch.compile(net, backend="aot_eager")
opt = torch.optim.Adam(net.parameters(), lr=1e-3)

train_dl = DataLoader(train_ds, batch_size=32, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=32)
net, opt, train_dl, val_dl = accelerator.prepare(net, opt, train_dl, val_dl)

for epoch in range(2):
    net.train()
    for x, y in train_dl:
        with accelerator.accumulate(net):
            loss = nn.functional.mse_loss(net(x).float(), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()

    model = accelerator.unwrap_model(net)
    model.eval()
    total, n = 0.0, 0
    with torch.no_grad(), accelerator.autocast():
        for x, y in val_dl:
            total += nn.functional.mse_loss(model(x).float(), y, reduction="sum").item()
            n += len(y)
    print(f"epoch {epoch} train {loss.item():.4f} val {total / n:.4f}")
