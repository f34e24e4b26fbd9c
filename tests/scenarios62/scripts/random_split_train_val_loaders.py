import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)

features = torch.randn(250, 12)
labels = (features[:, :3].sum(1) > 0).long()
dataset = TensorDataset(features, labels)
train_set, val_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))

train_loader = DataLoader(train_set, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(1))
val_loader = DataLoader(val_set, batch_size=32)

model = nn.Sequential(nn.Linear(12, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()


@torch.compile(backend="aot_eager")
def train_step(xb, yb):
    logits = model(xb)
    loss = loss_fn(logits, yb)
    loss.backward()
    return loss.detach()


@torch.compile(backend="aot_eager")
def eval_step(xb, yb):
    logits = model(xb)
    return (logits.argmax(-1) == yb).sum()


for epoch in range(2):
    model.train()
    total = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        total += float(train_step(xb, yb))
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += int(eval_step(xb, yb))
    print(f"epoch {epoch}: train_loss={total / len(train_loader):.3f} val_acc={correct / len(val_set):.3f}")
