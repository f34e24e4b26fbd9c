"""Next-purchase scorer trained in stages as new multi-hot feature sources
come online: stage 1 uses viewed-category and brand bags, stage 2 adds the
search-term bag, stage 3 adds the coupon bag.  Each bag is a fixed-width
padded id matrix pooled with EmbeddingBag(mode="max", padding_idx=0); when
a field is added the scorer head is widened and the old columns are kept."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

DIM = 12
SOURCES = {"viewed_categories": (60, 8), "brands": (40, 4), "search_terms": (300, 6), "coupons": (25, 3)}


class StagedScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.bags = nn.ModuleList()
        self.head = nn.Linear(0, 1)

    def add_field(self, vocab):
        self.bags.append(nn.EmbeddingBag(vocab, DIM, mode="max", padding_idx=0))
        old = self.head
        new = nn.Linear(old.in_features + DIM, 1)
        with torch.no_grad():
            new.weight.zero_()
            new.weight[:, :old.in_features] = old.weight
            new.bias.copy_(old.bias)
        self.head = new

    def forward(self, fields):
        pooled = [bag(ids) for bag, ids in zip(self.bags, fields)]
        return self.head(torch.tanh(torch.cat(pooled, dim=1))).squeeze(1)


def batch_for(names, n=96):
    fields = []
    for name in names:
        vocab, width = SOURCES[name]
        ids = torch.randint(1, vocab, (n, width))
        ids[torch.rand(n, width) < 0.5] = 0
        ids[:, 0] = torch.randint(1, vocab, (n,))    # at least one id per row
        fields.append(ids)
    y = (fields[0][:, 0] % 3 == 0).float()
    return fields, y


model = StagedScorer()
score = torch.compile(model, backend="aot_eager")
STAGES = [["viewed_categories", "brands"], ["search_terms"], ["coupons"]]
active = []
for stage, new_fields in enumerate(STAGES):
    for name in new_fields:
        model.add_field(SOURCES[name][0])
        active.append(name)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(4):
        fields, y = batch_for(active)
        loss = F.binary_cross_entropy_with_logits(score(fields), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage} fields {active} loss {loss.item():.4f}")
