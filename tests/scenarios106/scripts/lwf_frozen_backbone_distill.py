"""Learning without Forgetting with a backbone frozen after the first task.

Task 0 trains backbone and classifier. For the next tasks the classifier is
widened with new classes, a frozen copy of the previous model gives soft
targets for the old classes (knowledge distillation with temperature T), and
the backbone's first block is frozen with requires_grad_(False) to limit
forgetting. The loss function is compiled.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
        self.block2 = nn.Sequential(nn.Linear(64, 64), nn.ReLU())
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.block2(self.block1(x)))


def widen(fc, extra):
    new = nn.Linear(fc.in_features, fc.out_features + extra)
    with torch.no_grad():
        new.weight[: fc.out_features] = fc.weight
        new.bias[: fc.out_features] = fc.bias
    return new


@torch.compile(backend="aot_eager")
def lwf_loss(model, x, y, old_logits, T):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    if old_logits is not None:
        n_old = old_logits.shape[1]
        kd = F.kl_div(F.log_softmax(logits[:, :n_old] / T, dim=1),
                      F.softmax(old_logits / T, dim=1), reduction="batchmean")
        loss = loss + kd * T * T
    return loss


model = Net(2)
old_model = None
centres = torch.randn(6, 32) * 2
for task in range(3):
    if task > 0:
        old_model = copy.deepcopy(model).eval().requires_grad_(False)
        model.fc = widen(model.fc, 2)
        model.block1.requires_grad_(False)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05)
    for step in range(4):
        y = torch.randint(2 * task, 2 * task + 2, (24,))
        x = centres[y] + torch.randn(24, 32)
        old_logits = None
        if old_model is not None:
            with torch.no_grad():
                old_logits = old_model(x)
        opt.zero_grad()
        loss = lwf_loss(model, x, y, old_logits, 2.0)
        loss.backward()
        opt.step()
    print(f"task {task}: classes {model.fc.out_features} loss {loss.item():.3f}")
