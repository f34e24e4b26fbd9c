import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# (name, number of classes, class frequencies used to draw labels)
DATASETS = [
    ("birds", 8, None),
    ("insects", 12, None),
]


class Classifier(nn.Module):
    def __init__(self, in_dim=20, max_classes=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, max_classes))

    def forward(self, x):
        return self.net(x)


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


def balanced_loss(x, labels, num_classes, beta=0.99):
    logits = model(x)[:, :num_classes]
    counts = torch.bincount(labels, minlength=num_classes).float()
    effective = (1.0 - torch.pow(beta, counts)) / (1.0 - beta)
    weights = 1.0 / effective.clamp(min=1.0)
    weights = weights / weights.sum() * num_classes
    return F.cross_entropy(logits, labels, weight=weights)


loss_fn = torch.compile(balanced_loss, backend="aot_eager")

for epoch in range(2):
    for name, num_classes, _ in DATASETS:
        for _ in range(3):
            x = torch.randn(32, 20)
            labels = torch.randint(0, num_classes, (32,))
            loss = loss_fn(x, labels, num_classes)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, name, f"{loss.item():.4f}")
