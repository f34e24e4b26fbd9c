"""Fine-tune a small CNN on a new dataset; regularise the head once it overfits.

After every epoch the train and validation losses are compared. When the gap
gets too large the classifier head is wrapped with a dropout layer in front
of it, and the last conv block is re-initialised with model.apply.
"""

import torch
from torch import nn

torch.manual_seed(0)


class SmallCnn(nn.Module):
    def __init__(self, classes=6):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def reinit(m):
    if isinstance(m, nn.Conv2d) and m.out_channels == 32:
        nn.init.kaiming_normal_(m.weight)
        nn.init.zeros_(m.bias)


model = SmallCnn()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
train_x, train_y = torch.randn(32, 3, 24, 24), torch.randint(0, 6, (32,))
val_x, val_y = torch.randn(16, 3, 24, 24), torch.randint(0, 6, (16,))
regularised = False

for epoch in range(5):
    model.train()
    for i in range(0, 32, 8):
        loss = nn.functional.cross_entropy(cmodel(train_x[i : i + 8]), train_y[i : i + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.cross_entropy(cmodel(val_x[:8]), val_y[:8]).item()
    print(f"epoch {epoch} train {loss.item():.3f} val {val:.3f}")
    if not regularised and epoch >= 1 and val > loss.item() + 0.1:
        model.head = nn.Sequential(nn.Dropout(0.3), model.head)
        model.features.apply(reinit)
        regularised = True
        print("overfitting: added dropout before the head")
