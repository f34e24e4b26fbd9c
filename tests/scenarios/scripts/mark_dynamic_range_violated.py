import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")


def predict(batch):
    # we only ever expect small batches: tell the compiler the range
    torch._dynamo.mark_dynamic(batch, 0, min=2, max=16)
    with torch.no_grad():
        return compiled(batch)


for batch_size in [4, 8, 12, 32]:
    try:
        out = predict(torch.randn(batch_size, 16))
        print(f"batch {batch_size} -> {tuple(out.shape)}")
    except Exception as exc:  # noqa: BLE001
        print(f"batch {batch_size} failed: {type(exc).__name__}: {str(exc).splitlines()[0]}")
