"""DGCNN-style point cloud classifier with EdgeConv on a kNN graph."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_POINTS = 64
NUM_CLASSES = 4


def make_shape(label, gen):
    t = torch.rand(NUM_POINTS, 2, generator=gen) * 2 * math.pi
    if label == 0:  # sphere
        pts = torch.stack([t[:, 0].cos() * t[:, 1].sin(), t[:, 0].sin() * t[:, 1].sin(), t[:, 1].cos()], -1)
    elif label == 1:  # cylinder
        pts = torch.stack([t[:, 0].cos(), t[:, 0].sin(), t[:, 1] / math.pi - 1], -1)
    elif label == 2:  # torus
        r = 1 + 0.4 * t[:, 1].cos()
        pts = torch.stack([r * t[:, 0].cos(), r * t[:, 0].sin(), 0.4 * t[:, 1].sin()], -1)
    else:  # box
        pts = torch.rand(NUM_POINTS, 3, generator=gen) * 2 - 1
    return pts + 0.02 * torch.randn(NUM_POINTS, 3, generator=gen)


class EdgeConv(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.k = k
        self.mlp = nn.Sequential(nn.Linear(2 * c_in, c_out), nn.LayerNorm(c_out), nn.GELU())

    def forward(self, x):
        # x: (B, N, C)
        sq = x.pow(2).sum(-1)
        dist = sq.unsqueeze(-1) + sq.unsqueeze(-2) - 2 * x @ x.transpose(1, 2)
        idx = torch.sort(dist, dim=-1, stable=True).indices[:, :, 1:self.k + 1]
        nbrs = torch.take_along_dim(x.unsqueeze(1), idx.unsqueeze(-1), dim=2)
        center = x.unsqueeze(2).expand_as(nbrs)
        edge = torch.cat([center, nbrs - center], dim=-1)
        return self.mlp(edge).amax(dim=2)


class DGCNN(nn.Module):
    def __init__(self, k=4):
        super().__init__()
        self.convs = nn.ModuleList([EdgeConv(3, 32, k), EdgeConv(32, 32, k), EdgeConv(32, 64, k)])
        self.head = nn.Sequential(nn.Linear(128, 64), nn.GELU(), nn.Linear(64, NUM_CLASSES))

    def set_k(self, k):
        for conv in self.convs:
            conv.k = k

    def forward(self, pts):
        feats = []
        x = pts
        for conv in self.convs:
            x = conv(x)
            feats.append(x)
        x = torch.cat(feats, dim=-1)
        return self.head(x.amax(dim=1))


def main():
    gen = torch.Generator().manual_seed(3)
    labels = torch.randint(0, NUM_CLASSES, (64,), generator=gen)
    clouds = torch.stack([make_shape(int(c), gen) for c in labels])
    model = DGCNN()
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    k_schedule = {0: 4, 2: 8, 4: 12}
    for epoch in range(6):
        if epoch in k_schedule:
            model.set_k(k_schedule[epoch])
        model.train()
        for i in range(0, 64, 16):
            logits = compiled(clouds[i:i + 16])
            loss = F.cross_entropy(logits, labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} k={model.convs[0].k} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
