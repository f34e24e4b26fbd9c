"""Structured (L2-norm) channel pruning of a small CNN on a schedule.

Filters of the two conv layers are pruned with torch.nn.utils.prune.ln_structured
at the start of epochs 2 and 4 (iterative pruning: the second call stacks on the
first), then the network is fine-tuned.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


@torch.compile(backend="aot_eager")
def train_step(images, labels):
    logits = model(images)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    return loss


# epoch -> fraction of remaining filters to prune
PRUNE_SCHEDULE = {2: 0.25, 4: 0.25}

data = [(torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))) for _ in range(3)]

for epoch in range(6):
    if epoch in PRUNE_SCHEDULE:
        amount = PRUNE_SCHEDULE[epoch]
        for conv in (model.conv1, model.conv2):
            prune.ln_structured(conv, name="weight", amount=amount, n=2, dim=0)
        kept = int(model.conv2.weight_mask.sum(dim=(1, 2, 3)).gt(0).sum())
        print(f"epoch {epoch}: pruned {amount:.0%}, conv2 keeps {kept}/32 filters")
    model.train()
    total = 0.0
    for images, labels in data:
        opt.zero_grad()
        loss = train_step(images, labels)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / len(data):.4f}")

for conv in (model.conv1, model.conv2):
    prune.remove(conv, "weight")
sparsity = (model.conv2.weight == 0).float().mean().item()
print(f"final conv2 sparsity {sparsity:.2f}")
