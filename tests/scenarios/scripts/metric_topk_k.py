import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 20)).eval()


@torch.compile(backend="aot_eager")
def topk_accuracy(logits, target, k):
    topk = logits.topk(k, dim=-1).indices
    hit = (topk == target.unsqueeze(-1)).any(dim=-1)
    return hit.float().mean()


# validation loop reports top-1 and top-5 for every batch
with torch.no_grad():
    for step in range(4):
        x, y = torch.randn(16, 32), torch.randint(0, 20, (16,))
        logits = model(x)
        for k in (1, 5):
            acc = topk_accuracy(logits, y, k)
            print(f"step {step} top{k} {acc.item():.3f}")
