import torch
import torch.nn as nn

torch.manual_seed(0)

GROUPS = {"demographics": 4, "vitals": 6, "labs": 8}


class RiskModel(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoders = nn.ModuleDict({name: nn.Linear(n, hidden) for name, n in GROUPS.items()})
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, batch, enabled):
        h = 0
        for name in sorted(GROUPS):
            if name in enabled:
                h = h + self.encoders[name](batch[name])
        return self.head(h).squeeze(-1)


def make_batch(n=64):
    return {name: torch.randn(n, k) for name, k in GROUPS.items()}


model = RiskModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for _ in range(20):
    batch = make_batch()
    target = (batch["vitals"].sum(1) + batch["labs"][:, 0] > 0).float()
    loss = nn.functional.binary_cross_entropy_with_logits(model(batch, frozenset(GROUPS)), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()


@torch.compile(backend="aot_eager")
def score(batch, enabled, target):
    logits = model(batch, enabled)
    return nn.functional.binary_cross_entropy_with_logits(logits, target)


# leave-one-group-out ablation on a fixed validation set
val = make_batch(256)
val_target = (val["vitals"].sum(1) + val["labs"][:, 0] > 0).float()
with torch.no_grad():
    full = score(val, frozenset(GROUPS), val_target)
    print(f"all groups: {full.item():.4f}")
    for drop in sorted(GROUPS):
        kept = frozenset(GROUPS) - {drop}
        loss = score(val, kept, val_target)
        print(f"without {drop}: {loss.item():.4f} (+{(loss - full).item():.4f})")
