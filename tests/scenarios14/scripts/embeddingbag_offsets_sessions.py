"""Click-through model over user sessions with nn.EmbeddingBag.

Each batch is a set of sessions; every session is a bag of item ids with a
recency weight per item. The bags are flattened into one id tensor plus
offsets, the usual EmbeddingBag input format.
"""

import random

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
random.seed(0)

N_ITEMS = 5000
DIM = 32


class SessionCTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.EmbeddingBag(N_ITEMS, DIM, mode="sum")
        self.tower = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, ids, offsets, weights):
        pooled = self.items(ids, offsets, per_sample_weights=weights)
        return self.tower(pooled).squeeze(-1)


def collate(sessions):
    ids, offsets, weights = [], [], []
    for s in sessions:
        offsets.append(len(ids))
        ids.extend(s)
        # more recent clicks count more
        n = len(s)
        weights.extend([0.5 ** (n - 1 - i) for i in range(n)])
    return (
        torch.tensor(ids, dtype=torch.long),
        torch.tensor(offsets, dtype=torch.long),
        torch.tensor(weights, dtype=torch.float32),
    )


def fake_batch():
    # the loader groups whatever sessions arrived in the last window
    n_sessions = random.choice([16, 16, 12, 16, 9])
    sessions = [
        [random.randrange(N_ITEMS) for _ in range(random.randint(1, 12))]
        for _ in range(n_sessions)
    ]
    labels = torch.randint(0, 2, (n_sessions,)).float()
    return collate(sessions), labels


model = SessionCTR()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
step_fn = torch.compile(model, backend="aot_eager")

for step in range(8):
    (ids, offsets, weights), labels = fake_batch()
    logits = step_fn(ids, offsets, weights)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} sessions {len(offsets)} clicks {len(ids)} loss {loss.item():.4f}")
