import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
ACCUM = 4


@torch.compile(backend="aot_eager")
def micro_step(x, y, sync):
    pred = model(x)
    loss = nn.functional.mse_loss(pred, y) / ACCUM
    if sync:
        # last micro-batch before the optimizer step: also compute logging stats
        return loss, {"mae": (pred - y).abs().mean(), "pred_std": pred.std()}
    return loss, None


for step in range(12):
    x, y = torch.randn(8, 32), torch.randn(8, 1)
    sync = (step + 1) % ACCUM == 0
    loss, stats = micro_step(x, y, sync)
    loss.backward()
    if sync:
        opt.step()
        opt.zero_grad()
        print(f"step {step} loss {loss.item():.4f} mae {stats['mae'].item():.3f}")
