import torch
from torch import nn

torch.manual_seed(0)


class Gate(nn.Module):
    """Mixture-of-depths style gate: only the top `capacity` tokens go through the MLP."""

    def __init__(self, dim=32, capacity=4):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(dim, 1)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))

    def forward(self, x):
        scores = self.router(x).squeeze(-1)
        idx = scores.topk(self.capacity, dim=1).indices
        picked = torch.gather(x, 1, idx.unsqueeze(-1).expand(-1, -1, x.shape[-1]))
        update = self.mlp(picked) * torch.sigmoid(torch.gather(scores, 1, idx)).unsqueeze(-1)
        return x.scatter_add(1, idx.unsqueeze(-1).expand(-1, -1, x.shape[-1]), update)


model = Gate()
# fail fast in CI if this compiles too often
compiled = torch.compile(model, backend="aot_eager", recompile_limit=2)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

# capacity schedule: route more tokens as training goes on
for step in range(6):
    model.capacity = [4, 4, 8, 8, 12, 16][step]
    x = torch.randn(4, 32, 32)
    loss = compiled(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} capacity {model.capacity} loss {loss.item():.4f}")
