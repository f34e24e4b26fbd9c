"""Domain-adversarial training (DANN) with a gradient reversal layer whose
coefficient ramps up per epoch."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.coeff * grad, None


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.label_head = nn.Linear(32, 4)
        self.domain_head = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, coeff):
        h = self.features(x)
        return self.label_head(h), self.domain_head(GradReverse.apply(h, coeff)).squeeze(-1)


model = DANN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(xs, ys, xt, coeff):
    logits_s, dom_s = model(xs, coeff)
    _, dom_t = model(xt, coeff)
    cls = F.cross_entropy(logits_s, ys)
    dom = F.binary_cross_entropy_with_logits(
        torch.cat([dom_s, dom_t]), torch.cat([torch.zeros_like(dom_s), torch.ones_like(dom_t)])
    )
    return cls + dom


epochs = 4
for epoch in range(epochs):
    p = epoch / (epochs - 1)
    coeff = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0
    for _ in range(3):
        xs, ys = torch.randn(32, 10), torch.randint(0, 4, (32,))
        xt = torch.randn(32, 10) + 0.5
        loss = train_step(xs, ys, xt, coeff)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} coeff {coeff:.3f} loss {loss.item():.4f}")
