import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EmbeddingNet(nn.Module):
    def __init__(self, in_dim=24, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


model = EmbeddingNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def train_step(anchor, positive, negative, margin, swap):
    a, p, n = model(anchor), model(positive), model(negative)
    loss = F.triplet_margin_loss(a, p, n, margin=margin, swap=swap)
    loss.backward()
    return loss.detach()


step = torch.compile(train_step, backend="aot_eager")

g = torch.Generator().manual_seed(0)
centers = torch.randn(8, 24, generator=g) * 2


def sample_triplets(batch=32):
    cls = torch.randint(0, 8, (batch,), generator=g)
    other = (cls + torch.randint(1, 8, (batch,), generator=g)) % 8
    anchor = centers[cls] + torch.randn(batch, 24, generator=g)
    positive = centers[cls] + torch.randn(batch, 24, generator=g)
    negative = centers[other] + torch.randn(batch, 24, generator=g)
    return anchor, positive, negative


# curriculum: easy margin first, then harder margin, then distance swap
STAGES = [
    {"epochs": 2, "margin": 0.2, "swap": False},
    {"epochs": 2, "margin": 0.5, "swap": False},
    {"epochs": 2, "margin": 0.5, "swap": True},
]

epoch = 0
for stage in STAGES:
    for _ in range(stage["epochs"]):
        losses = []
        for _ in range(4):
            a, p, n = sample_triplets()
            opt.zero_grad()
            losses.append(step(a, p, n, stage["margin"], stage["swap"]).item())
            opt.step()
        print(f"epoch {epoch} margin={stage['margin']} swap={stage['swap']} loss={sum(losses) / len(losses):.4f}")
        epoch += 1
