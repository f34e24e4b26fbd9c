"""Train a small classifier and report top-k accuracy for several k in evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.functional.classification import multiclass_accuracy

torch.manual_seed(0)
NUM_CLASSES = 10

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, NUM_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def evaluate(x, y, top_k):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    acc = multiclass_accuracy(logits, y, num_classes=NUM_CLASSES, top_k=top_k, average="micro")
    return loss, acc


val_x = torch.randn(64, 20)
val_y = torch.randint(0, NUM_CLASSES, (64,))

for epoch in range(3):
    model.train()
    for _ in range(4):
        x = torch.randn(32, 20)
        y = torch.randint(0, NUM_CLASSES, (32,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    report = {}
    with torch.no_grad():
        for k in (1, 3, 5):
            _, acc = evaluate(val_x, val_y, k)
            report[f"top{k}"] = round(acc.item(), 3)
    print(epoch, report)
