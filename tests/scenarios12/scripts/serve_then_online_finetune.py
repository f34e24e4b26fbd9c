"""A click-through ranker that serves requests and learns online.

The same compiled model answers requests under `torch.inference_mode()`
(the serving path of the user's service) and, once enough clicks have been
logged, takes a fine-tuning step on them with autograd on.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Ranker(nn.Module):
    def __init__(self, n_items=500, dim=32):
        super().__init__()
        self.items = nn.Embedding(n_items, dim)
        self.user = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, user_feats, item_ids):
        u = self.user(user_feats)
        v = self.items(item_ids)
        return (u.unsqueeze(1) * v).sum(-1)


ranker = Ranker()
model = torch.compile(ranker, backend="aot_eager")
opt = torch.optim.SGD(ranker.parameters(), lr=0.05)

click_log = []

for request in range(12):
    user_feats = torch.randn(8, 24)
    candidates = torch.randint(0, 500, (8, 20))
    with torch.inference_mode():
        scores = model(user_feats, candidates)
    shown = scores.topk(5, dim=-1).indices
    # simulated feedback: which of the shown items the user clicked
    clicks = torch.zeros(8, 20)
    clicks.scatter_(1, shown, (torch.rand(8, 5) > 0.8).float())
    click_log.append((user_feats.clone(), candidates.clone(), clicks))
    print(f"request {request}: served, top score {scores.max().item():.3f}")

    # every 4 requests, learn from the logged impressions
    if len(click_log) == 4:
        for feats, items, labels in click_log:
            logits = model(feats, items)
            loss = nn.functional.binary_cross_entropy_with_logits(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        click_log.clear()
        print(f"request {request}: online update, last loss {loss.item():.4f}")
