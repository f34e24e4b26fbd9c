import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_NUM, N_CAT, CARD = 6, 3, 10


class RunningNormalizer:
    """Welford-style running mean / variance of the numeric columns."""

    def __init__(self, n, warmup_rows=256):
        self.count = 0
        self.mean = torch.zeros(n)
        self.m2 = torch.zeros(n)
        self.warmup_rows = warmup_rows

    def update(self, x):
        b = x.shape[0]
        bm = x.mean(0)
        bv = x.var(0, unbiased=False)
        delta = bm - self.mean
        tot = self.count + b
        self.mean = self.mean + delta * b / tot
        self.m2 = self.m2 + bv * b + delta.pow(2) * self.count * b / tot
        self.count = tot

    def std(self):
        return (self.m2 / max(self.count - 1, 1)).sqrt().clamp_min(1e-3)


class TabularNet(nn.Module):
    def __init__(self, norm):
        super().__init__()
        self.norm = norm
        self.cat = nn.ModuleList([nn.Embedding(CARD, 4) for _ in range(N_CAT)])
        self.mlp = nn.Sequential(nn.Linear(N_NUM + 4 * N_CAT, 48), nn.ReLU(), nn.Linear(48, 1))

    def forward(self, num, cat):
        if self.norm.count < self.norm.warmup_rows:
            z = (num - num.mean(0)) / (num.std(0) + 1e-3)
        else:
            z = (num - self.norm.mean) / self.norm.std()
        z = z.clamp(-5, 5)
        e = torch.cat([emb(cat[:, j]) for j, emb in enumerate(self.cat)], dim=-1)
        return self.mlp(torch.cat([z, e], dim=-1)).squeeze(-1)


def stream(n_batches, bs=64):
    for t in range(n_batches):
        scale = torch.tensor([1.0, 10.0, 100.0, 0.1, 5.0, 50.0]) * (1 + 0.05 * t)
        num = torch.randn(bs, N_NUM) * scale + 3.0
        cat = torch.randint(0, CARD, (bs, N_CAT))
        y = (num[:, 0] / scale[0] + (cat[:, 0] == 2).float()) * 2.0
        yield num, cat, y


norm = RunningNormalizer(N_NUM)
model = TabularNet(norm)
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

for step, (num, cat, y) in enumerate(stream(7)):
    norm.update(num)
    pred = cmodel(num, cat)
    loss = F.smooth_l1_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} rows seen {norm.count} loss {loss.item():.4f}")
