"""Face-embedding style training with an additive angular margin head.

The margin is warmed up over the first epochs (starting at zero margin makes
the early training stable), the scale stays fixed.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class ArcMarginHead(nn.Module):
    def __init__(self, dim, classes, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, dim) * 0.01)
        self.s = s
        self.m = m

    def forward(self, emb, labels):
        cos = F.linear(F.normalize(emb), F.normalize(self.weight)).clamp(-1 + 1e-7, 1 - 1e-7)
        theta = torch.acos(cos)
        target = torch.cos(theta + self.m)
        onehot = F.one_hot(labels, cos.shape[1]).bool()
        logits = torch.where(onehot, target, cos) * self.s
        return F.cross_entropy(logits, labels)


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(48, 128), nn.ReLU(), nn.Linear(128, 32))
        self.head = ArcMarginHead(32, 20)

    def forward(self, x, labels):
        return self.head(self.body(x), labels)


model = Embedder()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

x = torch.randn(512, 48)
y = torch.randint(0, 20, (512,))
final_margin, warmup_epochs = 0.5, 4

for epoch in range(6):
    model.head.m = final_margin * min(1.0, epoch / warmup_epochs)
    for i in range(0, 512, 128):
        loss = step_fn(x[i : i + 128], y[i : i + 128])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} margin {model.head.m:.3f} ({math.degrees(model.head.m):.1f} deg) loss {loss.item():.3f}")
