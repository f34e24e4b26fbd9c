import torch
import torch.nn as nn
from torch.nn.utils import get_total_norm

torch.manual_seed(0)

backbone = nn.Sequential(
    nn.Linear(16, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
)
head = nn.Linear(32, 3)
model = nn.Sequential(backbone, head)
for p in backbone.parameters():
    p.requires_grad_(False)


@torch.compile(backend="aot_eager")
def grad_stats(grads, max_norm):
    norm = get_total_norm(grads, norm_type=2.0)
    scale = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
    return norm, scale


def trainable():
    return [p for p in model.parameters() if p.requires_grad]


opt = torch.optim.SGD(trainable(), lr=0.05)
blocks = [backbone[4], backbone[2], backbone[0]]
for stage in range(4):
    for _ in range(3):
        x = torch.randn(32, 16)
        y = torch.randint(0, 3, (32,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        params = trainable()
        norm, scale = grad_stats([p.grad for p in params], 1.0)
        for p in params:
            p.grad.mul_(scale)
        opt.step()
    print(f"stage {stage}: {len(params)} tensors, grad norm {norm.item():.3f}")
    # unfreeze the next block from the top
    if stage < len(blocks):
        for p in blocks[stage].parameters():
            p.requires_grad_(True)
        opt = torch.optim.SGD(trainable(), lr=0.05)
