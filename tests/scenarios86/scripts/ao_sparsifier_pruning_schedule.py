import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.pruning import WeightNormSparsifier

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, d_in=32, hidden=64, n_cls=5):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, n_cls)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.head(x)


def make_data(n=256, d_in=32, n_cls=5):
    x = torch.randn(n, d_in)
    w = torch.randn(d_in, n_cls)
    y = (x @ w).argmax(dim=1)
    return x, y


model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
cmodel = torch.compile(model, backend="aot_eager")
x_all, y_all = make_data()

sparsifier = WeightNormSparsifier(sparsity_level=0.0, sparse_block_shape=(1, 4), zeros_per_block=4)
config = [{"tensor_fqn": "fc1.weight"}, {"tensor_fqn": "fc2.weight"}]

# gradual magnitude pruning: dense warm-up, then ramp sparsity, then fine-tune
sparsity_by_epoch = {2: 0.25, 3: 0.5, 4: 0.7}


def train_epoch():
    model.train()
    total = 0.0
    for i in range(0, x_all.shape[0], 32):
        xb, yb = x_all[i:i + 32], y_all[i:i + 32]
        loss = F.cross_entropy(cmodel(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total


@torch.no_grad()
def evaluate():
    model.eval()
    acc = (cmodel(x_all).argmax(1) == y_all).float().mean().item()
    model.train()
    return acc


prepared = False
for epoch in range(6):
    if epoch in sparsity_by_epoch:
        if not prepared:
            sparsifier.prepare(model, config)
            prepared = True
        for group in sparsifier.groups:
            group["sparsity_level"] = sparsity_by_epoch[epoch]
        sparsifier.step()
    loss = train_epoch()
    if prepared:
        sparsifier.step()
    print(f"epoch {epoch} loss {loss:.3f} acc {evaluate():.3f}")

sparsifier.squash_mask()
zeros = (model.fc1.weight == 0).float().mean().item()
print(f"final acc {evaluate():.3f} fc1 sparsity {zeros:.2f}")
