import torch
import torch.nn as nn
from torchmetrics.functional.classification import multiclass_f1_score

torch.manual_seed(0)

NUM_CLASSES = 5

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, NUM_CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

g = torch.Generator().manual_seed(0)
train_x = torch.randn(256, 20, generator=g)
train_y = (train_x[:, :NUM_CLASSES].argmax(-1) + (torch.rand(256, generator=g) < 0.2).long()) % NUM_CLASSES
val_x = torch.randn(128, 20, generator=g)
val_y = val_x[:, :NUM_CLASSES].argmax(-1)

for epoch in range(3):
    for i in range(0, 256, 64):
        loss = nn.functional.cross_entropy(model(train_x[i:i + 64]), train_y[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_f1 = multiclass_f1_score(model(train_x).argmax(-1), train_y, num_classes=NUM_CLASSES)
    print(f"epoch {epoch} train f1={train_f1.item():.3f}")


def f1_for_section(x, y, average):
    preds = model(x).argmax(-1)
    return multiclass_f1_score(preds, y, num_classes=NUM_CLASSES, average=average)


score = torch.compile(f1_for_section, backend="aot_eager")

REPORT = [
    ("Overall", "micro"),
    ("Per-class mean", "macro"),
    ("Support-weighted", "weighted"),
    ("Per class", "none"),
]

model.eval()
with torch.no_grad():
    for split in range(2):
        x = val_x[split * 64:(split + 1) * 64]
        y = val_y[split * 64:(split + 1) * 64]
        print(f"== validation shard {split}")
        for title, average in REPORT:
            value = score(x, y, average)
            print(f"{title:>18}: {[round(v, 3) for v in value.flatten().tolist()]}")
