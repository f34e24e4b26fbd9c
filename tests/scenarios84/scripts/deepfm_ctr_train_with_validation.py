import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FIELD_SIZES = [50, 30, 20, 12, 8]
EMB = 8


class DeepFM(nn.Module):
    def __init__(self, field_sizes, emb_dim):
        super().__init__()
        self.offsets = nn.Parameter(
            torch.tensor([0] + list(torch.tensor(field_sizes).cumsum(0)[:-1].tolist())),
            requires_grad=False,
        )
        total = sum(field_sizes)
        self.first_order = nn.Embedding(total, 1)
        self.embed = nn.Embedding(total, emb_dim)
        self.bias = nn.Parameter(torch.zeros(1))
        n = len(field_sizes) * emb_dim
        self.deep = nn.Sequential(
            nn.Linear(n, 64), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(32, 1),
        )

    def forward(self, fields):
        idx = fields + self.offsets
        linear = self.first_order(idx).sum(dim=(1, 2)) + self.bias
        v = self.embed(idx)
        sum_sq = v.sum(dim=1).pow(2)
        sq_sum = v.pow(2).sum(dim=1)
        fm = 0.5 * (sum_sq - sq_sum).sum(dim=1)
        deep = self.deep(v.flatten(1)).squeeze(1)
        return linear + fm + deep


def make_batch(n):
    cols = [torch.randint(0, s, (n,)) for s in FIELD_SIZES]
    x = torch.stack(cols, dim=1)
    y = ((x[:, 0] % 3 == 0) ^ (x[:, 2] > 10)).float()
    return x, y


model = DeepFM(FIELD_SIZES, EMB)
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

train_batches = [make_batch(128) for _ in range(6)]
val_x, val_y = make_batch(128)

for epoch in range(3):
    model.train()
    for x, y in train_batches:
        logits = cmodel(x)
        loss = F.binary_cross_entropy_with_logits(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val_logits = cmodel(val_x)
        val_loss = F.binary_cross_entropy_with_logits(val_logits, val_y)
        auc_proxy = ((val_logits > 0).float() == val_y).float().mean()
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss.item():.4f} acc {auc_proxy.item():.3f}")
