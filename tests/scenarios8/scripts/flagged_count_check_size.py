"""Fraud-scoring service that reranks only the flagged transactions.

Each request is a batch of 64 transactions. The compiled handler scores
them, counts how many cross the alert threshold and, if any do, reranks the
flagged ones with a heavier second-stage model.
"""

import torch
from torch import nn

torch.manual_seed(0)

scorer = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
reranker = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
THRESHOLD = 0.5


@torch.compile(backend="aot_eager")
def handle(batch):
    scores = torch.sigmoid(scorer(batch)).squeeze(-1)
    n_flagged = int((scores > THRESHOLD).sum().item())
    torch._check_is_size(n_flagged)
    if n_flagged == 0:
        return scores, None
    top = scores.topk(n_flagged).indices
    return scores, torch.sigmoid(reranker(batch[top])).squeeze(-1)


def incoming_requests(n_requests, batch_size=64):
    for request in range(n_requests):
        # traffic drifts a little from request to request
        yield request, torch.randn(batch_size, 12) + 0.15 * request


alerts = []
with torch.no_grad():
    for request, batch in incoming_requests(8):
        scores, second = handle(batch)
        flagged = 0 if second is None else second.numel()
        if second is not None:
            alerts.extend(second.tolist())
        print(f"request {request} flagged {flagged} mean score {scores.mean().item():.3f}")
print(f"{len(alerts)} alerts, {sum(a > 0.5 for a in alerts)} confirmed by the reranker")
