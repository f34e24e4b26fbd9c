"""Fine-tuning a small MLP head with transformers' Adafactor.

Adafactor keeps factored second moments, which saves memory on big layers;
the optimizer update is compiled along with the backward pass.
"""

import torch
from torch import nn
from transformers.optimization import Adafactor

torch.manual_seed(0)

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


for step in range(6):
    x = torch.randn(32, 64)
    y = torch.randint(0, 4, (32,))
    loss = train_step(x, y)
    print(f"step {step} loss {loss.item():.4f}")
