"""Multi-task regression with an auxiliary reconstruction loss.

For the first steps the auxiliary term gets a fixed weight; after warm-up
the weight is balanced from the ratio of the two losses of the previous
step so neither task dominates.
"""

import torch
from torch import nn

torch.manual_seed(0)


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.reg = nn.Linear(32, 1)
        self.rec = nn.Linear(32, 16)

    def forward(self, x):
        h = self.body(x)
        return self.reg(h), self.rec(h)


model = TwoHead()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
WARMUP = 4


@torch.compile(backend="aot_eager")
def compute_loss(x, y, aux_weight):
    pred, recon = model(x)
    main = nn.functional.mse_loss(pred.squeeze(-1), y)
    aux = nn.functional.mse_loss(recon, x)
    return main + aux_weight * aux, main, aux


x = torch.randn(64, 16)
y = x[:, :4].sum(dim=1) + 0.1 * torch.randn(64)
aux_weight = 0.5
for step in range(10):
    loss, main, aux = compute_loss(x, y, aux_weight)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step + 1 >= WARMUP:
        aux_weight = (main.detach() / aux.detach()).clamp(max=1.0)
    print(f"step {step} loss {loss.item():.4f}")
