import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")

# phase 1: train, then evaluate under no_grad
loss = compiled(torch.randn(8, 16)).pow(2).mean()
loss.backward()
with torch.no_grad():
    print("phase 1 eval", compiled(torch.randn(8, 16)).mean().item())

# start the next experiment from a clean compiler state
torch._dynamo.reset()

# phase 2: inference with a different batch size
with torch.no_grad():
    print("phase 2", compiled(torch.randn(8, 16)).mean().item())
    print("phase 2", compiled(torch.randn(3, 16)).mean().item())
