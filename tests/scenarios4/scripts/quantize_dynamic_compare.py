"""Comparing a model with its dynamically quantized copy.

The user builds an int8 copy of a small text classifier with
`torch.ao.quantization.quantize_dynamic` and checks, batch by batch, how far
its predictions are from the float model's. Both models go through the same
compiled evaluation function.
"""

import torch
from torch import nn
from torch.ao.quantization import quantize_dynamic

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 5)).eval()
int8_model = quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)


@torch.compile(backend="aot_eager")
def predict(net, x):
    return net(x).softmax(-1)


for batch in range(3):
    x = torch.randn(32, 64)
    with torch.no_grad():
        ref = predict(model, x)
        q = predict(int8_model, x)
    print(f"batch {batch} max prob diff {(ref - q).abs().max().item():.4f}")
