import torch
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32))
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        return self.head(self.backbone(x).relu())


model = Classifier()
for p in model.backbone.parameters():
    p.requires_grad = False  # warm up the head first
compiled = torch.compile(model, backend="inductor")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step in range(5):
    if step == 3:
        for p in model.backbone.parameters():
            p.requires_grad = True  # unfreeze the backbone
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
