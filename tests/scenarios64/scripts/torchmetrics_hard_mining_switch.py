import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import BinaryAccuracy

torch.manual_seed(0)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
        self.hard_mining = False
        self.keep_frac = 0.5

    def forward(self, x, y):
        logits = self.body(x).squeeze(-1)
        losses = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
        if self.hard_mining:
            k = int(losses.shape[0] * self.keep_frac)
            losses = torch.topk(losses, k).values
        return losses.mean(), logits


torch.manual_seed(0)
w = torch.randn(10)
x_all = torch.randn(6, 48, 10)
y_all = (x_all @ w > 0).float()

model = Detector()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
acc = BinaryAccuracy()

for epoch in range(6):
    acc.reset()
    for b in range(6):
        loss, logits = step_fn(x_all[b], y_all[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc.update(logits.detach().sigmoid(), y_all[b].long())
    epoch_acc = acc.compute().item()
    if model.hard_mining:
        model.keep_frac = max(0.25, round(model.keep_frac - 0.1, 2))
    model.hard_mining = model.hard_mining or epoch_acc > 0.8
    print(epoch, round(epoch_acc, 3), model.hard_mining, model.keep_frac)
