import torch
from torch import nn
from torch.nn.utils import prune

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(3):
    if epoch == 1:
        # iterative magnitude pruning: drop 30% of the hidden layer's weights
        prune.l1_unstructured(model[2], name="weight", amount=0.3)
    if epoch == 2:
        # make the pruning permanent before export
        prune.remove(model[2], "weight")
    for step in range(2):
        x, y = torch.randn(16, 20), torch.randint(0, 3, (16,))
        loss = nn.functional.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
