"""A classifier trained with accelerate in bf16 mixed precision on CPU.

The user compiles the model, hands it to `Accelerator(mixed_precision="bf16")`
with its optimizer and loaders, trains one short epoch and then runs a
validation pass with `torch.no_grad()` after `model.eval()`.
"""

import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 4))
model = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
train = DataLoader(TensorDataset(torch.randn(96, 20), torch.randint(0, 4, (96,))), batch_size=32)
val = DataLoader(TensorDataset(torch.randn(40, 20), torch.randint(0, 4, (40,))), batch_size=32)

accelerator = Accelerator(mixed_precision="bf16", cpu=True)
model, opt, train, val = accelerator.prepare(model, opt, train, val)

model.train()
for x, y in train:
    loss = nn.functional.cross_entropy(model(x), y)
    accelerator.backward(loss)
    opt.step()
    opt.zero_grad()
    print(f"train loss {loss.item():.4f}")

model.eval()
correct = 0
with torch.no_grad():
    for x, y in val:
        correct += (model(x).argmax(-1) == y).sum().item()
print(f"val accuracy {correct / 40:.2f}")
