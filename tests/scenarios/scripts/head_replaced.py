import torch
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Classifier(num_classes=10)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(6):
    if step == 3:
        # transfer to the downstream task: a fresh 3-way head
        model.head = nn.Linear(64, 3)
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
    num_classes = model.head.out_features
    x, y = torch.randn(8, 20), torch.randint(0, num_classes, (8,))
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} classes {num_classes} loss {loss.item():.4f}")
