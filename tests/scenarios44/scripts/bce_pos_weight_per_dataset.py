import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Scorer(nn.Module):
    def __init__(self, d_in=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def make_dataset(n, pos_rate, d_in=16):
    y = (torch.rand(n) < pos_rate).float()
    x = torch.randn(n, d_in) + y[:, None] * 0.5
    return x, y


# some datasets ship a label-count manifest, others we have to count ourselves
datasets = [
    ("clicks", make_dataset(128, 0.25), {"neg": 96, "pos": 32}),
    ("fraud", make_dataset(128, 0.10), None),
    ("churn", make_dataset(128, 0.40), {"neg": 77, "pos": 51}),
    ("spam", make_dataset(128, 0.30), None),
]


def class_balance(y, manifest):
    if manifest is not None:
        return manifest["neg"] / manifest["pos"]
    pos = y.sum()
    return (y.numel() - pos) / pos.clamp(min=1.0)


model = Scorer()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def train_step(x, y, pos_weight):
    logits = model(x)
    loss = F.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.as_tensor(pos_weight))
    loss.backward()
    return loss


for epoch in range(2):
    for name, (x, y), manifest in datasets:
        pos_weight = class_balance(y, manifest)
        for i in range(0, 128, 32):
            loss = train_step(x[i:i + 32], y[i:i + 32], pos_weight)
            opt.step()
            opt.zero_grad()
        print(f"epoch {epoch} {name} pos_weight={float(pos_weight):.2f} loss={loss.item():.4f}")
