"""FedAvg with a dropout model; after every round the server evaluates the
aggregated global model on a held-out set in eval mode, accumulating
torchmetrics MulticlassF1Score (macro) over the validation batches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassF1Score

torch.manual_seed(0)

CLASSES = 3
model = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, CLASSES))
compiled = torch.compile(model, backend="aot_eager")
clients = [(torch.randn(32, 14), torch.randint(0, CLASSES, (32,))) for _ in range(3)]
val_x, val_y = torch.randn(64, 14), torch.randint(0, CLASSES, (64,))
metric = MulticlassF1Score(num_classes=CLASSES, average="macro")

global_state = {k: v.clone() for k, v in model.state_dict().items()}
for rnd in range(3):
    states = []
    for x, y in clients:
        model.load_state_dict(global_state)
        model.train()
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        for _ in range(2):
            loss = F.cross_entropy(compiled(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        states.append({k: v.detach().clone() for k, v in model.state_dict().items()})
    global_state = {k: torch.stack([s[k] for s in states]).mean(0) for k in global_state}
    model.load_state_dict(global_state)
    model.eval()
    metric.reset()
    with torch.no_grad():
        for i in range(0, 64, 32):
            metric.update(compiled(val_x[i:i + 32]), val_y[i:i + 32])
    print(f"round {rnd}: last train loss {loss.item():.4f} val macro-F1 {metric.compute().item():.3f}")
