"""Detector-style training with a momentum warm-up.

Momentum starts low and ramps to its final value over the first
iterations (a common recipe for YOLO-like detectors); the optimizer step is
compiled on its own.
"""

import torch
from torch import nn

torch.manual_seed(0)

backbone = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1),
    nn.SiLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1),
    nn.SiLU(),
)
head = nn.Conv2d(32, 5 + 3, 1)  # box(4) + objectness(1) + classes(3)
model = nn.Sequential(backbone, head)

opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.8, nesterov=True, weight_decay=5e-4)
WARMUP_ITERS = 4
START_MOMENTUM, FINAL_MOMENTUM = 0.8, 0.937


@torch.compile(backend="aot_eager")
def optimizer_step():
    opt.step()


for it in range(8):
    if it < WARMUP_ITERS:
        frac = it / WARMUP_ITERS
        for group in opt.param_groups:
            group["momentum"] = START_MOMENTUM + frac * (FINAL_MOMENTUM - START_MOMENTUM)
    images = torch.randn(8, 3, 64, 64)
    target = torch.randn(8, 8, 16, 16)
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(images), target)
    loss.backward()
    optimizer_step()
    print(f"iter {it} loss {loss.item():.4f} momentum {opt.param_groups[0]['momentum']:.3f}")
