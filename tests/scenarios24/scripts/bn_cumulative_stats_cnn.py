"""Small CNN for 32x32 defect patches. Batch statistics are averaged over the
whole run (momentum=None) instead of an exponential average, because the
patches of one line differ a lot from batch to batch.
"""

import torch
from torch import nn

torch.manual_seed(0)


class PatchNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1),
            nn.BatchNorm2d(16, momentum=None),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.BatchNorm2d(32, momentum=None),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


model = PatchNet()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

val_x = torch.randn(64, 1, 32, 32)
val_y = torch.randint(0, 3, (64,))

for epoch in range(2):
    model.train()
    for step in range(5):
        x = torch.randn(32, 1, 32, 32) * (1 + 0.2 * step)
        y = torch.randint(0, 3, (32,))
        loss = loss_fn(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (compiled(val_x).argmax(-1) == val_y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f}")
