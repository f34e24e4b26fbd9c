"""Checking how much accuracy a low-precision deployment would lose.

The user compares the outputs of a small MLP computed in float32, bfloat16
and float16 by passing the target dtype to one compiled function that casts
the weights and inputs with `.to(dtype)`.
"""

import torch
from torch import nn

torch.manual_seed(0)

mlp = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
w1, b1 = mlp[0].weight.detach(), mlp[0].bias.detach()
w2, b2 = mlp[2].weight.detach(), mlp[2].bias.detach()


@torch.compile(backend="aot_eager")
def forward_in(x, dtype):
    h = torch.relu(x.to(dtype) @ w1.to(dtype).T + b1.to(dtype))
    out = h @ w2.to(dtype).T + b2.to(dtype)
    return out.float()


x = torch.randn(128, 32)
reference = forward_in(x, torch.float32)
for batch in range(2):
    for dtype in [torch.float32, torch.bfloat16, torch.float16]:
        err = (forward_in(x, dtype) - reference).abs().max().item()
        print(f"batch {batch} {str(dtype):15s} max err {err:.5f}")
