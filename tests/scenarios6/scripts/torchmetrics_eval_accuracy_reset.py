"""Evaluate a classifier each epoch with a torchmetrics accuracy metric.

The user moved the metric update into the compiled eval step so the whole
validation batch is one call, and resets the metric at the end of each epoch
after logging it.
"""

import torch
import torch.nn.functional as F
from torch import nn
from torchmetrics.classification import MulticlassAccuracy

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
val_acc = MulticlassAccuracy(num_classes=5, average="micro", validate_args=False)

train_x, train_y = torch.randn(256, 20), torch.randint(0, 5, (256,))
val_x, val_y = torch.randn(96, 20), torch.randint(0, 5, (96,))


@torch.compile(backend="aot_eager")
def eval_step(x, y):
    logits = model(x)
    val_acc.update(logits.argmax(-1), y)
    return F.cross_entropy(logits, y)


for epoch in range(3):
    model.train()
    for i in range(0, 256, 32):
        loss = F.cross_entropy(model(train_x[i : i + 32]), train_y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        val_loss = 0.0
        for i in range(0, 96, 32):
            val_loss += eval_step(val_x[i : i + 32], val_y[i : i + 32]).item()
    print(f"epoch {epoch} val loss {val_loss / 3:.4f} acc {val_acc.compute().item():.3f}")
    val_acc.reset()
