"""Fine-tuning a regressor with a gradient-clipping threshold that tightens.

The whole optimisation step (forward, backward, clipping, update) lives in
one compiled function. The clipping threshold starts loose and is halved at
the start of each epoch, as the user's fine-tuning recipe says.
"""

import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def train_step(x, y, max_norm):
    loss = nn.functional.smooth_l1_loss(model(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    opt.step()
    return loss.detach(), total


def make_split(n, true_w):
    x = torch.randn(n, 16)
    y = x @ true_w + 0.1 * torch.randn(n, 1)
    return x, y


def evaluate(x, y):
    model.eval()
    with torch.no_grad():
        err = nn.functional.l1_loss(model(x), y).item()
    model.train()
    return err


true_w = torch.randn(16, 1)
data = [make_split(128, true_w) for _ in range(3)]
x_val, y_val = make_split(256, true_w)

max_norm = 4.0
for epoch in range(3):
    for x, y in data:
        loss, total = train_step(x, y, max_norm)
    val = evaluate(x_val, y_val)
    print(f"epoch {epoch} max_norm {max_norm} loss {loss.item():.4f} grad norm {total.item():.3f} val mae {val:.4f}")
    max_norm = max_norm / 2
