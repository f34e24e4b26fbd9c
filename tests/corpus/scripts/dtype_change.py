import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="inductor")

with torch.no_grad():
    for step in range(4):
        if step == 2:
            model.double()  # switch to float64 for a precision check
        dtype = torch.float64 if step >= 2 else torch.float32
        x = torch.randn(8, 16, dtype=dtype)
        out = compiled(x)
        print(f"step {step} dtype {out.dtype} out {out.sum().item():.4f}")
