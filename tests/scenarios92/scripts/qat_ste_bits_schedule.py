"""Quantisation-aware training with a custom autograd.Function straight-through estimator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, bits):
        qmax = 2 ** (bits - 1) - 1
        scale = w.abs().max().clamp(min=1e-8) / qmax
        ctx.save_for_backward(w)
        ctx.limit = qmax * scale
        return torch.round(w / scale).clamp(-qmax, qmax) * scale

    @staticmethod
    def backward(ctx, g):
        (w,) = ctx.saved_tensors
        return g * (w.abs() <= ctx.limit).to(g.dtype), None


class QLinear(nn.Linear):
    bits = 8

    def forward(self, x):
        return F.linear(x, FakeQuantSTE.apply(self.weight, self.bits), self.bias)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = QLinear(24, 48)
        self.l2 = QLinear(48, 6)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


model = Model()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(x, y, accum):
    loss = F.cross_entropy(model(x), y) / accum
    loss.backward()
    return loss


bits_schedule = {0: 8, 2: 6, 4: 4}
accum = 2
for epoch in range(6):
    if epoch in bits_schedule:
        for m in model.modules():
            if isinstance(m, QLinear):
                m.bits = bits_schedule[epoch]
    total = 0.0
    for micro in range(2 * accum):
        x = torch.randn(16, 24)
        y = torch.randint(0, 6, (16,))
        total += train_step(x, y, accum).item()
        if (micro + 1) % accum == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad()
    print(f"epoch {epoch} bits {model.l1.bits} loss {total / 2:.4f}")
