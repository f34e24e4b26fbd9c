import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SimpleBN(nn.Module):
    """Hand-written batch norm so the momentum can follow a schedule."""

    def __init__(self, num_features, momentum=0.1, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))
        self.momentum = momentum
        self.eps = eps

    def forward(self, x):
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            training=self.training, momentum=self.momentum, eps=self.eps)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 32)
        self.bn1 = SimpleBN(32)
        self.fc2 = nn.Linear(32, 32)
        self.bn2 = SimpleBN(32)
        self.out = nn.Linear(32, 2)

    def forward(self, x):
        x = F.relu(self.bn1(self.fc1(x)))
        x = F.relu(self.bn2(self.fc2(x)))
        return self.out(x)


def set_bn_momentum(model, m):
    for mod in model.modules():
        if isinstance(mod, SimpleBN):
            mod.momentum = m


model = MLP()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

val_x = torch.randn(128, 12)
val_y = (val_x[:, 0] > 0).long()

for epoch in range(3):
    # decay the running-stat momentum as training settles
    set_bn_momentum(model, 0.1 * (0.5 ** epoch))
    model.train()
    for _ in range(3):
        x = torch.randn(32, 12)
        y = (x[:, 0] > 0).long()
        loss = F.cross_entropy(cmodel(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (cmodel(val_x).argmax(-1) == val_y).float().mean()
    print(f"epoch {epoch}: loss {loss.item():.4f} acc {acc.item():.3f}")
