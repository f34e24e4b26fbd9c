import torch
from torch import nn

torch.manual_seed(0)


class WarmupGate(nn.Module):
    """Every layer counts forward calls on the class to share one warm-up schedule."""

    calls = 0
    warmup_calls = 6

    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        WarmupGate.calls += 1
        if WarmupGate.calls <= WarmupGate.warmup_calls:
            return x + 0.1 * self.lin(x)
        return x + self.lin(x)


model = nn.Sequential(WarmupGate(16), nn.ReLU(), WarmupGate(16), nn.Linear(16, 1))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    x, y = torch.randn(32, 16), torch.randn(32, 1)
    loss = nn.functional.mse_loss(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} calls {WarmupGate.calls} loss {loss.item():.4f}")
