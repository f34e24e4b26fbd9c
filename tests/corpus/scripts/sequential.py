import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
model = torch.compile(model, backend="inductor")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for step, batch_size in enumerate([32, 32, 16, 1, 8]):
    x = torch.randn(batch_size, 16)
    y = torch.randint(0, 4, (batch_size,))
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} batch {batch_size} loss {loss.item():.4f}")
