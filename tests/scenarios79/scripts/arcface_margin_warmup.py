"""Face-embedding style training with an additive angular margin (ArcFace) head."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_IDS, DIM, EMB = 20, 32, 16
CFG = {"scale": 16.0, "margin": 0.0}


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, 64), nn.BatchNorm1d(64), nn.PReLU(), nn.Linear(64, EMB))

    def forward(self, x):
        return self.net(x)


class ArcHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N_IDS, EMB) * 0.1)

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.weight)).clamp(-1 + 1e-6, 1 - 1e-6)
        m = CFG["margin"]
        theta = torch.acos(cos)
        target = torch.cos(theta + m)
        # keep the target logit monotone past pi - m
        target = torch.where(theta + m < math.pi, target, cos - m * math.sin(m))
        onehot = F.one_hot(labels, N_IDS).to(cos.dtype)
        logits = CFG["scale"] * (onehot * target + (1 - onehot) * cos)
        return F.cross_entropy(logits, labels)


backbone, head = Backbone(), ArcHead()
loss_fn = torch.compile(head, backend="aot_eager")
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1, momentum=0.9)
centers = torch.randn(N_IDS, DIM)

margins = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.5]
for epoch, m in enumerate(margins):
    CFG["margin"] = m
    for _ in range(3):
        labels = torch.randint(0, N_IDS, (32,))
        x = centers[labels] + 0.3 * torch.randn(32, DIM)
        loss = loss_fn(backbone(x), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} margin {m:.2f} loss {loss.item():.4f}")
