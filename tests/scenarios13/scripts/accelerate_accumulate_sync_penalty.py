"""Classifier trained with accelerate's gradient accumulation.

Micro-batches of 16, optimizer step every 4 micro-batches. The weight penalty
is only added on the micro-batch where accelerate will sync and step, so the
penalty is counted once per optimizer step.
"""

import torch
import torch.nn.functional as F
from accelerate import Accelerator
from torch import nn

torch.manual_seed(0)

accelerator = Accelerator(cpu=True, gradient_accumulation_steps=4)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

X = torch.randn(320, 20)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 1).long()
ds = torch.utils.data.TensorDataset(X, Y)
loader = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=True)

model, opt, loader = accelerator.prepare(model, opt, loader)
WD = 1e-3


@torch.compile(backend="aot_eager")
def compute_loss(x, y):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    if accelerator.sync_gradients:
        penalty = sum((p * p).sum() for p in model.parameters())
        loss = loss + WD * penalty
    return loss


for epoch in range(2):
    running = 0.0
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = compute_loss(x, y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
        running += loss.item()
    accelerator.print(f"epoch {epoch} mean loss {running / len(loader):.4f}")
