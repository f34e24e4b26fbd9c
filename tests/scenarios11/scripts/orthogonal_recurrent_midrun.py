"""Training a small recurrent cell whose hidden-to-hidden matrix drifts.

After a few epochs of plain training the user notices exploding activations
and constrains the recurrent weight to stay orthogonal, then keeps training.
"""

import torch
from torch import nn
from torch.nn.utils import parametrizations

torch.manual_seed(0)


class Cell(nn.Module):
    def __init__(self, d_in=8, d_hid=32):
        super().__init__()
        self.inp = nn.Linear(d_in, d_hid)
        self.rec = nn.Linear(d_hid, d_hid, bias=False)
        self.out = nn.Linear(d_hid, 1)

    def forward(self, xs):
        h = torch.zeros(xs.shape[0], self.rec.in_features)
        for t in range(xs.shape[1]):
            h = torch.tanh(self.inp(xs[:, t]) + self.rec(h))
        return self.out(h).squeeze(-1)


model = Cell()
opt = torch.optim.SGD(model.parameters(), lr=0.05)


@torch.compile(backend="aot_eager")
def train_step(xs, ys):
    pred = model(xs)
    return nn.functional.mse_loss(pred, ys)


xs = torch.randn(16, 6, 8)
ys = xs.sum(dim=(1, 2))

for epoch in range(6):
    if epoch == 3:
        # keep the recurrent matrix orthogonal from now on
        parametrizations.orthogonal(model.rec)
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loss = train_step(xs, ys)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
