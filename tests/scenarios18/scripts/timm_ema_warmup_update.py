"""Small CIFAR-style classifier with an EMA copy of the weights (timm's ModelEmaV3).

The EMA update runs every step over all parameters, so we compile it to cut
the python overhead; decay warms up from the step count like in the timm
training script. At the end we evaluate the EMA weights.
"""

import torch
from timm.utils import ModelEmaV3
from torch import nn

torch.manual_seed(0)


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
    )


model = make_model()
ema = ModelEmaV3(model, decay=0.999, use_warmup=True, warmup_power=3 / 4, exclude_buffers=True)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


@torch.compile(backend="aot_eager")
def update_ema(step):
    ema.update(model, step=step)


# fake data: a few fixed batches we cycle over
batches = [(torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))) for _ in range(4)]

global_step = 0
for epoch in range(3):
    model.train()
    for x, y in batches:
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        global_step += 1
        update_ema(global_step)
    print(f"epoch {epoch} loss {loss.item():.4f} ema decay {ema.get_decay(global_step):.4f}")

# evaluate the averaged weights
with torch.no_grad():
    correct = 0
    for x, y in batches:
        correct += (ema.module(x).argmax(1) == y).sum().item()
print("ema acc", correct / 64)
