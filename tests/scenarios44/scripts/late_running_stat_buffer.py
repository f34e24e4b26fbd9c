import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        if getattr(self, "act_mean", None) is not None and self.training:
            with torch.no_grad():
                self.act_mean.mul_(0.9).add_(0.1 * h.mean(0))
        return self.norm(x + h)


class Net(nn.Module):
    def __init__(self, d_in=10, dim=32, n_cls=4):
        super().__init__()
        self.inp = nn.Linear(d_in, dim)
        self.block1 = Block(dim)
        self.block2 = Block(dim)
        self.head = nn.Linear(dim, n_cls)

    def forward(self, x):
        return self.head(self.block2(self.block1(self.inp(x))))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
compiled = torch.compile(model, backend="aot_eager")
loss_fn = nn.CrossEntropyLoss()

x_all = torch.randn(192, 10)
y_all = torch.randint(0, 4, (192,))

for epoch in range(4):
    if epoch == 2:
        # start tracking activation statistics for the monitoring dashboard
        model.block2.register_buffer("act_mean", torch.zeros(32))
    total = 0.0
    for i in range(0, 192, 48):
        logits = compiled(x_all[i:i + 48])
        loss = loss_fn(logits, y_all[i:i + 48])
        loss.backward()
        opt.step()
        opt.zero_grad()
        total += loss.item()
    msg = f"epoch {epoch} loss={total / 4:.4f}"
    if hasattr(model.block2, "act_mean"):
        msg += f" act_mean={model.block2.act_mean.mean().item():.4f}"
    print(msg)
