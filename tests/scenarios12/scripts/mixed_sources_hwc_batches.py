"""Training a small CNN on a mixture of two image sources.

Source A is a folder of pre-processed NCHW tensors; source B is decoded by
an image library into HWC uint8 arrays, which the user's loader turns into
NCHW with a permute (no copy). Batches from the two sources are
interleaved by a weighted sampler.
"""

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

net = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.Conv2d(16, 32, 3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(32, 10),
)
model = torch.compile(net, backend="aot_eager")
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def batch_from_tensors(n=16):
    # cached NCHW float tensors, already normalised
    return torch.randn(n, 3, 32, 32), torch.randint(0, 10, (n,))


def batch_from_decoder(n=16):
    # what the decoder hands back: N x H x W x C uint8
    arr = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
    x = torch.from_numpy(arr).permute(0, 3, 1, 2).float() / 255.0
    x = (x - MEAN) / STD
    return x, torch.randint(0, 10, (n,))


# the sampler draws source B about a third of the time
schedule = ["A", "A", "B", "A", "A", "B", "A", "B", "A", "A"]
for step, source in enumerate(schedule):
    x, y = batch_from_tensors() if source == "A" else batch_from_decoder()
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} source {source} loss {loss.item():.4f}")
