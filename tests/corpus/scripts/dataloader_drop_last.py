import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

dataset = TensorDataset(torch.randn(70, 16), torch.randint(0, 4, (70,)))
train_loader = DataLoader(dataset, batch_size=32, shuffle=True, drop_last=False)

for epoch in range(3):
    for x, y in train_loader:  # batches of 32, 32, then 6
        loss = nn.functional.cross_entropy(compiled(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
