"""Quantization-aware training with a straight-through estimator.

Activations are fake-quantized with a custom autograd.Function whose
backward passes gradients straight through inside the clipping range.
The user lowers the bit width as training goes on (8 -> 6 -> 4 bits).
"""

import torch
from torch import nn

torch.manual_seed(0)


class FakeQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bits, clip):
        ctx.save_for_backward(x)
        ctx.clip = clip
        levels = 2 ** bits - 1
        x_c = x.clamp(-clip, clip)
        scale = 2 * clip / levels
        return torch.round((x_c + clip) / scale) * scale - clip

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = (x.abs() <= ctx.clip).to(grad_out.dtype)
        return grad_out * inside, None, None


class QuantMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(24, 48)
        self.fc2 = nn.Linear(48, 6)

    def forward(self, x, bits):
        h = torch.relu(self.fc1(x))
        h = FakeQuant.apply(h, bits, 2.0)
        return self.fc2(h)


model = QuantMLP()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
fwd = torch.compile(model, backend="aot_eager")

x = torch.randn(64, 24)
y = torch.randint(0, 6, (64,))
schedule = {0: 8, 2: 6, 4: 4}  # epoch -> bit width

bits = 8
for epoch in range(6):
    bits = schedule.get(epoch, bits)
    for _ in range(3):
        loss = nn.functional.cross_entropy(fwd(x, bits), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} bits {bits} loss {loss.item():.4f}")
