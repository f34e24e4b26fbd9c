import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

# robust loss per dataset (delta picked from the label noise of each source)
LOSSES = {
    "lab_measurements": functools.partial(F.huber_loss, delta=1.0),
    "field_sensors": functools.partial(F.huber_loss, delta=0.2),
    "simulated": functools.partial(F.huber_loss, delta=1.0),
}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 24), nn.GELU(), nn.Linear(24, 1))

    def forward(self, x):
        return self.body(x)


def train_step(model, x, y, loss_fn):
    pred = model(x)
    return loss_fn(pred, y)


def main():
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = torch.compile(train_step, backend="aot_eager")
    w = torch.randn(6, 1)
    for epoch in range(2):
        for source, loss_fn in LOSSES.items():
            for _ in range(2):
                x = torch.randn(32, 6)
                y = x @ w + 0.3 * torch.randn(32, 1)
                loss = step(model, x, y, loss_fn)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, source, round(loss.item(), 4))


if __name__ == "__main__":
    main()
