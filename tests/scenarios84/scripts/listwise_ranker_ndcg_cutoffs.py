import torch
import torch.nn as nn
from torchmetrics.functional.retrieval import retrieval_normalized_dcg

torch.manual_seed(0)

FEAT = 12


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, docs):
        return self.net(docs).squeeze(-1)


def listnet_loss(scores, relevance):
    target = torch.softmax(relevance.float(), dim=-1)
    return -(target * torch.log_softmax(scores, dim=-1)).sum(-1).mean()


def make_queries(n_queries, list_size):
    docs = torch.randn(n_queries, list_size, FEAT)
    rel = (docs[..., 0] * 1.5 + docs[..., 1]).clamp(-1, 2).round().clamp_min(0).long()
    return docs, rel


model = Scorer()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def train_step(docs, rel):
    scores = model(docs)
    return listnet_loss(scores, rel)


@torch.compile(backend="aot_eager")
def eval_ndcg(docs, rel, k):
    scores = model(docs)
    return torch.stack([retrieval_normalized_dcg(scores[q], rel[q], top_k=k) for q in range(docs.shape[0])]).mean()


train_sets = [make_queries(16, 20) for _ in range(4)]
val_docs, val_rel = make_queries(4, 20)

for epoch in range(2):
    for docs, rel in train_sets:
        loss = train_step(docs, rel)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        report = {f"ndcg@{k}": eval_ndcg(val_docs, val_rel, k).item() for k in (1, 5, 10)}
    print(f"epoch {epoch} loss {loss.item():.4f}", report)
