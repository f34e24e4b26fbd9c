"""xDeepFM-style CTR model: field embeddings fed to a compressed interaction
network (outer products per embedding dimension via torch.einsum, squeezed
with 1x1 Conv1d, sum-pooled), a linear part and a deep MLP with BatchNorm1d
and dropout.  The whole model is compiled; after each training epoch it is
scored on a held-out day in eval mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCABS = [30, 200, 12, 80, 7]
DIM = 8


class CIN(nn.Module):
    def __init__(self, n_fields, layer_sizes=(12, 12)):
        super().__init__()
        self.convs = nn.ModuleList()
        prev = n_fields
        for h in layer_sizes:
            self.convs.append(nn.Conv1d(prev * n_fields, h, kernel_size=1))
            prev = h
        self.out_dim = sum(layer_sizes)

    def forward(self, x0):                       # (B, m, D)
        xs, pooled = x0, []
        for conv in self.convs:
            z = torch.einsum("bhd,bmd->bhmd", xs, x0)
            z = z.reshape(x0.shape[0], -1, x0.shape[2])
            xs = F.relu(conv(z))
            pooled.append(xs.sum(dim=2))
        return torch.cat(pooled, dim=1)


class XDeepFM(nn.Module):
    def __init__(self):
        super().__init__()
        self.offsets = torch.tensor([0] + VOCABS[:-1]).cumsum(0)
        self.emb = nn.Embedding(sum(VOCABS), DIM)
        self.linear = nn.Embedding(sum(VOCABS), 1)
        self.cin = CIN(len(VOCABS))
        self.dnn = nn.Sequential(
            nn.Linear(len(VOCABS) * DIM, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1)
        )
        self.cin_out = nn.Linear(self.cin.out_dim, 1)

    def forward(self, fields):                   # (B, m) per-field ids
        ids = fields + self.offsets
        e = self.emb(ids)
        logit = self.linear(ids).sum(dim=(1, 2))
        logit = logit + self.cin_out(self.cin(e)).squeeze(1)
        return logit + self.dnn(e.flatten(1)).squeeze(1)


def make_day(n):
    x = torch.stack([torch.randint(0, v, (n,)) for v in VOCABS], dim=1)
    y = ((x[:, 0] * x[:, 2]) % 5 == 0).float()
    return x, y


model = XDeepFM()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
train_x, train_y = make_day(384)
valid_x, valid_y = make_day(200)

for epoch in range(3):
    model.train()
    for s in range(0, 384, 128):
        loss = F.binary_cross_entropy_with_logits(compiled(train_x[s:s + 128]), train_y[s:s + 128])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        scores = torch.cat([compiled(valid_x[s:s + 100]) for s in range(0, 200, 100)])
        vloss = F.binary_cross_entropy_with_logits(scores, valid_y)
    print(f"epoch {epoch} train {loss.item():.4f} valid {vloss.item():.4f}")
