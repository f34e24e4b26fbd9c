import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8)).eval()
compiled = torch.compile(model, backend="aot_eager")

# the batcher rounds queued requests up to a power of two
with torch.no_grad():
    for tick, batch in enumerate([1, 2, 4, 8, 1, 4, 2, 8]):
        out = compiled(torch.randn(batch, 32))
        print(f"tick {tick} batch {batch} -> {tuple(out.shape)}")
