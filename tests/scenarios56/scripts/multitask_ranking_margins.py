import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PairScorer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.tower = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, a, b):
        return self.tower(a).squeeze(-1), self.tower(b).squeeze(-1)


def ranking_step(model, a, b, target, margin):
    sa, sb = model(a, b)
    return F.margin_ranking_loss(sa, sb, target, margin=margin)


TASKS = [
    {"name": "search_relevance", "margin": 0.5},
    {"name": "ads_ctr", "margin": 0.1},
    {"name": "recsys_watchtime", "margin": 1.0},
    {"name": "qa_answer_rank", "margin": 0.25},
]

model = PairScorer()
step_fn = torch.compile(ranking_step, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for task in TASKS:
        a = torch.randn(32, 32)
        b = torch.randn(32, 32)
        target = torch.where(torch.rand(32) > 0.5, 1.0, -1.0)
        loss = step_fn(model, a, b, target, task["margin"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} {task['name']}: {loss.item():.4f}")
