import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DeepSupervised(nn.Module):
    def __init__(self, d_in=20, dim=32, depth=4, classes=6):
        super().__init__()
        self.inp = nn.Linear(d_in, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
        self.aux = nn.ModuleList([nn.Linear(dim, classes) for _ in range(depth)])

    def forward(self, x):
        h = F.relu(self.inp(x))
        preds = []
        for layer, aux in zip(self.layers, self.aux):
            h = F.relu(layer(h))
            preds.append(aux(h))
        return preds


model = DeepSupervised()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def supervised_loss(weights, preds, y):
    total = 0.0
    for w, p in zip(weights, preds):
        total = total + w * F.cross_entropy(p, y)
    return total


# stage k supervises the deepest k+1 heads
stage_weights = [
    [1.0],
    [0.5, 1.0],
    [0.25, 0.5, 1.0],
    [0.125, 0.25, 0.5, 1.0],
]

for stage, weights in enumerate(stage_weights):
    for step in range(3):
        x = torch.randn(32, 20)
        y = torch.randint(0, 6, (32,))
        preds = model(x)
        loss = supervised_loss(weights, preds[-len(weights):], y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage}: {len(weights)} terms, loss={loss.item():.4f}")
