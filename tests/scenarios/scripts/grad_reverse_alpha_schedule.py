import math

import torch
from torch import nn

torch.manual_seed(0)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(20, 32), nn.ReLU())
        self.label_head = nn.Linear(32, 4)
        self.domain_head = nn.Linear(32, 2)

    def forward(self, x, alpha):
        f = self.features(x)
        return self.label_head(f), self.domain_head(GradReverse.apply(f, alpha))


model = DANN()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.01)

total = 6
for step in range(total):
    p = step / total
    alpha = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0  # DANN schedule, new value every step
    x, y, d = torch.randn(8, 20), torch.randint(0, 4, (8,)), torch.randint(0, 2, (8,))
    cls, dom = compiled(x, alpha)
    loss = nn.functional.cross_entropy(cls, y) + nn.functional.cross_entropy(dom, d)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} alpha {alpha:.3f} loss {loss.item():.4f}")
