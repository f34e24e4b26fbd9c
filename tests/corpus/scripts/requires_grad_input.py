import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")

for step in range(4):
    x = torch.randn(8, 16)
    if step == 2:
        x.requires_grad_(True)  # input-gradient saliency for this batch
    loss = compiled(x).pow(2).mean()
    loss.backward()
    saliency = x.grad.abs().mean().item() if x.grad is not None else 0.0
    print(f"step {step} loss {loss.item():.4f} saliency {saliency:.4f}")
