"""Leave-one-field-out ablation of a CTR model.  Each ablation job resets
the weights and trains the same compiled model with one categorical field
blanked out (its pooled vector replaced by zeros), then reports the
validation log-loss.  The multi-hot "recent_categories" field is a padded
2-D id matrix pooled with EmbeddingBag(mode="mean", padding_idx=0)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FIELDS = {"device": 8, "geo": 50, "hour": 24, "recent_categories": 40}
DIM = 8


class CTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.dropped_field = None
        self.emb = nn.ModuleDict()
        for name, vocab in FIELDS.items():
            if name == "recent_categories":
                self.emb[name] = nn.EmbeddingBag(vocab, DIM, mode="mean", padding_idx=0)
            else:
                self.emb[name] = nn.Embedding(vocab, DIM)
        self.head = nn.Sequential(nn.Linear(DIM * len(FIELDS), 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, batch):
        vecs = []
        for name in FIELDS:
            v = self.emb[name](batch[name])
            if name == self.dropped_field:
                v = torch.zeros_like(v)
            vecs.append(v)
        return self.head(torch.cat(vecs, dim=1)).squeeze(1)


def make_split(n):
    batch = {name: torch.randint(0, v, (n,)) for name, v in FIELDS.items() if name != "recent_categories"}
    recent = torch.randint(1, FIELDS["recent_categories"], (n, 6))
    recent[torch.rand(n, 6) < 0.4] = 0
    batch["recent_categories"] = recent
    y = ((batch["geo"] % 7 == 0) | (batch["hour"] > 18)).float()
    return batch, y


def reset(m):
    if hasattr(m, "reset_parameters") and m is not model:
        m.reset_parameters()


train, y_train = make_split(256)
valid, y_valid = make_split(128)
model = CTR()
compiled = torch.compile(model, backend="aot_eager")

for dropped in [None, "device", "geo", "recent_categories"]:
    model.apply(reset)
    model.dropped_field = dropped
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for s in range(0, 256, 128):
            mb = {k: v[s:s + 128] for k, v in train.items()}
            loss = F.binary_cross_entropy_with_logits(compiled(mb), y_train[s:s + 128])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        vloss = F.binary_cross_entropy_with_logits(compiled(valid), y_valid)
    print(f"without {dropped}: valid logloss {vloss.item():.4f}")
