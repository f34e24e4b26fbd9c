"""MoCo-style contrastive pretraining with a momentum (key) encoder whose
momentum follows a cosine schedule from 0.99 to 1.0."""
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MomentumEncoder(nn.Module):
    def __init__(self, encoder, momentum=0.99):
        super().__init__()
        self.query = encoder
        self.key = copy.deepcopy(encoder)
        for p in self.key.parameters():
            p.requires_grad_(False)
        self.momentum = momentum

    @torch.no_grad()
    def update_key(self):
        m = self.momentum
        for pq, pk in zip(self.query.parameters(), self.key.parameters()):
            pk.mul_(m).add_(pq.detach(), alpha=1.0 - m)


def cosine_momentum(step, total, base=0.99):
    return 1.0 - (1.0 - base) * (math.cos(math.pi * step / total) + 1) / 2


encoder = nn.Sequential(nn.Linear(20, 48), nn.ReLU(), nn.Linear(48, 16))
moco = MomentumEncoder(encoder)
opt = torch.optim.SGD(moco.query.parameters(), lr=0.05, momentum=0.9)
update = torch.compile(moco.update_key, backend="aot_eager")


def augment(x):
    return x + 0.1 * torch.randn_like(x)


total_steps = 6
for step in range(total_steps):
    x = torch.randn(32, 20)
    q = F.normalize(moco.query(augment(x)), dim=1)
    with torch.no_grad():
        k = F.normalize(moco.key(augment(x)), dim=1)
    logits = q @ k.t() / 0.2
    loss = F.cross_entropy(logits, torch.arange(32))
    opt.zero_grad()
    loss.backward()
    opt.step()
    moco.momentum = cosine_momentum(step, total_steps)
    update()
    print(f"step {step} loss {loss.item():.4f} m {moco.momentum:.5f}")
