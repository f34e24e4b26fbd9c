import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics import MetricCollection
from torchmetrics.classification import MulticlassAccuracy, MulticlassRecall

torch.manual_seed(0)
NUM_CLASSES = 5

model = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, NUM_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
metrics = MetricCollection(
    {
        "acc": MulticlassAccuracy(num_classes=NUM_CLASSES, average="micro"),
        "recall": MulticlassRecall(num_classes=NUM_CLASSES, average=None),
    },
    compute_groups=True,
)


@torch.compile(backend="aot_eager")
def focused_loss(logits, targets, focus_class, boost):
    weights = torch.ones(logits.shape[-1])
    weights[focus_class] = boost
    return F.cross_entropy(logits, targets, weight=weights)


centers = torch.randn(NUM_CLASSES, 12) * 1.5
targets_all = torch.randint(0, NUM_CLASSES, (8, 40))
inputs_all = centers[targets_all] + torch.randn(8, 40, 12)

focus = 0
for epoch in range(6):
    metrics.reset()
    for b in range(8):
        logits = model(inputs_all[b])
        loss = focused_loss(logits, targets_all[b], focus, 2.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        metrics.update(logits.detach(), targets_all[b])
    out = metrics.compute()
    focus = int(out["recall"].argmin())
    print(epoch, round(out["acc"].item(), 3), [round(v, 2) for v in out["recall"].tolist()], "focus", focus)
