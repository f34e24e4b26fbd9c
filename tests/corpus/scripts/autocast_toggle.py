import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8))
compiled = torch.compile(model, backend="aot_eager")

for step in range(6):
    x = torch.randn(16, 32)
    use_amp = step % 2 == 1
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_amp):
        out = compiled(x)
    loss = out.float().pow(2).mean()
    loss.backward()
    print(f"step {step} amp {use_amp} dtype {out.dtype} loss {loss.item():.4f}")
