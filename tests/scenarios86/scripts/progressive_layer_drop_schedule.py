import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ProgressiveLayerDrop:
    """theta(t) = (1 - theta_bar) * exp(-gamma * t) + theta_bar, refreshed per epoch."""

    def __init__(self, theta_bar=0.5, gamma=0.6):
        self.theta_bar = theta_bar
        self.gamma = gamma
        self.theta = 1.0

    def update(self, epoch):
        self.theta = round((1 - self.theta_bar) * math.exp(-self.gamma * epoch) + self.theta_bar, 3)


class Layer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        h = self.norm(x)
        h = self.attn(h, h, h, need_weights=False)[0]
        return h + self.ff(x + h)


class PLDEncoder(nn.Module):
    def __init__(self, pld, vocab=300, d=32, depth=3, n_cls=2):
        super().__init__()
        self.pld = pld
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(Layer(d) for _ in range(depth))
        self.cls = nn.Linear(d, n_cls)

    def forward(self, tokens):
        x = self.emb(tokens)
        depth = len(self.layers)
        for i, layer in enumerate(self.layers):
            if self.training:
                keep = 1.0 - (i + 1) / depth * (1.0 - self.pld.theta)
                gate = torch.bernoulli(torch.full((x.shape[0], 1, 1), keep)) / keep
                x = x + gate * layer(x)
            else:
                x = x + layer(x)
        return self.cls(x.mean(1))


pld = ProgressiveLayerDrop()
model = PLDEncoder(pld)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
cmodel = torch.compile(model, backend="aot_eager")

tokens = torch.randint(0, 300, (128, 16))
labels = (tokens[:, 0] > 150).long()

for epoch in range(5):
    pld.update(epoch)
    model.train()
    for i in range(0, 128, 32):
        loss = F.cross_entropy(cmodel(tokens[i:i + 32]), labels[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (cmodel(tokens).argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch} theta {pld.theta:.3f} loss {loss.item():.3f} acc {acc:.3f}")
