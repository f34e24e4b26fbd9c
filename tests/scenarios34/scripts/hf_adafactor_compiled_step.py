"""Fine-tuning a small MLP head with transformers' Adafactor.

Adafactor keeps factored second moments, which saves memory on big layers;
the optimizer update is compiled along with the backward pass.
"""

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from transformers.optimization import Adafactor

torch.manual_seed(0)

# stand-in for pooled sentence features and their intent labels
features = torch.randn(192, 64)
labels = (features[:, :4].argmax(dim=1) + (features[:, 4] > 1).long()) % 4
train_loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True, drop_last=True)

model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64), nn.GELU(), nn.Linear(64, 4))
# relative step sizes, as in the T5 recipe
opt = Adafactor(model.parameters(), scale_parameter=True, relative_step=True, warmup_init=True, lr=None)
loss_fn = nn.CrossEntropyLoss()


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss


model.train()
for step, (x, y) in enumerate(train_loader):
    loss = train_step(x, y)
    print(f"step {step} loss {loss.item():.4f}")

# quick check on the training data
model.eval()
with torch.no_grad():
    acc = (model(features).argmax(dim=1) == labels).float().mean().item()
print(f"train accuracy {acc:.3f}")
