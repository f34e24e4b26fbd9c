"""One compiled step function shared by training, validation and test-time
augmentation; the phase is an IntEnum and extra switches travel as a tuple.
"""

import enum

import torch
from torch import nn

torch.manual_seed(0)


class Phase(enum.IntEnum):
    TRAIN = 0
    EVAL = 1
    TTA = 2


net = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5),
)
opt = torch.optim.SGD(net.parameters(), lr=0.01)


@torch.compile(backend="aot_eager")
def step(images, labels, phase, flags):
    use_label_smoothing, flip = flags
    if phase == Phase.TTA:
        logits = (net(images) + net(images.flip(-1))) / 2
    else:
        logits = net(images.flip(-1) if flip else images)
    smoothing = 0.1 if use_label_smoothing else 0.0
    loss = nn.functional.cross_entropy(logits, labels, label_smoothing=smoothing)
    return loss, logits


images = torch.randn(8, 3, 16, 16)
labels = torch.randint(0, 5, (8,))

for epoch in range(2):
    for it in range(3):
        loss, _ = step(images, labels, Phase.TRAIN, (True, it % 2 == 1))
        loss.backward()
        opt.step()
        opt.zero_grad()
    with torch.no_grad():
        val_loss, _ = step(images, labels, Phase.EVAL, (False, False))
        tta_loss, _ = step(images, labels, Phase.TTA, (False, False))
    print(f"epoch {epoch} train {loss.item():.3f} val {val_loss.item():.3f} tta {tta_loss.item():.3f}")
