"""Two-stage training recipe driven by command-line arguments.

The script parses its hyper-parameters with argparse into a module-level
`args`. The loss reads them directly. After stage one, the recipe switches
stage-two settings on by updating `args` in place (so the values printed
and logged at the end reflect what actually ran).
"""

import argparse

import torch
import torch.nn.functional as F
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=6)
parser.add_argument("--stage_two_epoch", type=int, default=3)
parser.add_argument("--label_smoothing", type=float, default=0.0)
parser.add_argument("--aux_weight", type=float, default=0.5)
parser.add_argument("--lr", type=float, default=1e-3)
args = parser.parse_args([])

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(24, 96), nn.GELU(), nn.Linear(96, 96), nn.GELU())
        self.main = nn.Linear(96, 8)
        self.aux = nn.Linear(96, 8)

    def forward(self, x):
        h = self.body(x)
        return self.main(h), self.aux(h)


model = Net()
opt = torch.optim.Adam(model.parameters(), lr=args.lr)


@torch.compile(backend="aot_eager")
def loss_fn(x, y):
    logits, aux_logits = model(x)
    loss = F.cross_entropy(logits, y, label_smoothing=args.label_smoothing)
    if args.aux_weight > 0:
        loss = loss + args.aux_weight * F.cross_entropy(aux_logits, y)
    return loss


X = torch.randn(384, 24)
Y = torch.randint(0, 8, (384,))

for epoch in range(args.epochs):
    if epoch == args.stage_two_epoch:
        # stage two: drop the auxiliary head, smooth the labels
        args.aux_weight = 0.0
        args.label_smoothing = 0.1
    total = 0.0
    for i in range(0, 384, 64):
        loss = loss_fn(X[i : i + 64], Y[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / 6:.4f} (smoothing={args.label_smoothing}, aux={args.aux_weight})")

print("final args:", vars(args))
