"""Long-tailed intent classifier with a per-batch class-balanced loss.

Rare intents get up-weighted inside each batch: every sample's loss is
divided by how often its label occurs in that batch.  The sampler draws
from a growing label set as new intents are added to the dataset.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

N_INTENTS = 16


class IntentHead(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, N_INTENTS))

    def forward(self, x):
        return self.net(x)


@torch.compile(backend="aot_eager")
def balanced_ce(logits, labels):
    per_sample = F.cross_entropy(logits, labels, reduction="none")
    counts = F.one_hot(labels).sum(0).float()  # how many of each label in this batch
    weights = 1.0 / counts[labels]
    weights = weights / weights.sum()
    return (per_sample * weights).sum()


model = IntentHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

# the label pool grows as annotation rounds land
rounds = [6, 6, 9, 9, 12, 16, 16]
for step, n_labels in enumerate(rounds):
    feats = torch.randn(32, 48)
    labels = torch.randint(0, n_labels, (32,))
    labels[0] = n_labels - 1  # every round's newest intent is present
    loss = balanced_ce(model(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} intents {n_labels} loss {loss.item():.4f}")
