"""kNN evaluation of a small embedding model; k comes from the evaluation config."""
from dataclasses import dataclass
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class EvalConfig:
    name: str
    k: int
    temperature: float = 0.07


embed = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 24))
embed.eval()


@torch.compile(backend="aot_eager")
def knn_predict(query, bank, bank_labels, k, num_classes):
    dist = torch.cdist(query, bank)
    d, idx = dist.topk(k, dim=1, largest=False)
    weights = torch.exp(-d / 0.5)
    votes = F.one_hot(bank_labels[idx], num_classes).float() * weights.unsqueeze(-1)
    return votes.sum(dim=1).argmax(dim=1)


num_classes = 5
centers = torch.randn(num_classes, 32) * 2
bank_y = torch.randint(0, num_classes, (200,))
bank_x = centers[bank_y] + torch.randn(200, 32)
test_y = torch.randint(0, num_classes, (50,))
test_x = centers[test_y] + torch.randn(50, 32)

configs = [EvalConfig("1-nn", 1), EvalConfig("5-nn", 5), EvalConfig("20-nn", 20), EvalConfig("200-nn", 200)]
with torch.no_grad():
    bank = F.normalize(embed(bank_x), dim=1)
    queries = F.normalize(embed(test_x), dim=1)
    for cfg in configs:
        pred = knn_predict(queries, bank, bank_y, cfg.k, num_classes)
        acc = (pred == test_y).float().mean().item()
        print(f"{cfg.name}: acc {acc:.3f}")
