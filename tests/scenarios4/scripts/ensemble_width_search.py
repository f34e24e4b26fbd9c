"""A small width search over an MLP regressor.

The user defines the model's forward as a compiled method and trains one
model per hidden width from a search grid, each for a few steps on the same
data, then keeps the best width.
"""

import torch
from torch import nn

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(10, width)
        self.fc2 = nn.Linear(width, 1)

    @torch.compile(backend="aot_eager")
    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x))).squeeze(-1)


x, y = torch.randn(64, 10), torch.randn(64)
scores = {}
for width in [16, 32, 64, 128, 256]:
    model = Regressor(width)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    scores[width] = loss.item()
    print(f"width {width:3d} loss {scores[width]:.4f}")
print("best width", min(scores, key=scores.get))
