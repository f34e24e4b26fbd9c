import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))
compiled = torch.compile(model, backend="inductor")
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def train_step():
    model.train()
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    return loss.item()


def evaluate():
    model.eval()
    with torch.no_grad():
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        return nn.functional.cross_entropy(compiled(x), y).item()


for epoch in range(2):
    for _ in range(2):
        print(f"epoch {epoch} train loss {train_step():.4f}")
    print(f"epoch {epoch} eval loss {evaluate():.4f}")
