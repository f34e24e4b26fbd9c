import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, d_in=20, hidden=32, n_cls=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, n_cls))

    def forward(self, x):
        return F.log_softmax(self.net(x), dim=-1)


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


@torch.compile(backend="aot_eager")
def eval_loss(model, x, y, reduction):
    logp = model(x)
    return F.nll_loss(logp, y, reduction=reduction)


def train_epoch(steps=4):
    model.train()
    for _ in range(steps):
        x = torch.randn(32, 20)
        y = torch.randint(0, 5, (32,))
        loss = F.nll_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


# each report wants the loss aggregated in its own way
REPORTS = [
    {"name": "mean_loss", "reduction": "mean"},
    {"name": "total_loss", "reduction": "sum"},
    {"name": "per_sample", "reduction": "none"},
]

val_x = torch.randn(64, 20)
val_y = torch.randint(0, 5, (64,))

for epoch in range(3):
    train_epoch()
    model.eval()
    with torch.no_grad():
        for rep in REPORTS:
            out = eval_loss(model, val_x, val_y, rep["reduction"])
            if out.dim() == 0:
                print(f"epoch {epoch} {rep['name']}: {out.item():.4f}")
            else:
                print(f"epoch {epoch} {rep['name']}: worst={out.max().item():.4f}")
