"""Serve a small tabular classifier, then switch it to int8 weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, d_in=24, hidden=64, n_cls=5):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, n_cls)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.out(x)


class Int8Linear(nn.Module):
    """Weight-only int8 linear with per-output-channel scales."""

    def __init__(self, linear):
        super().__init__()
        w = linear.weight.detach()
        scale = w.abs().amax(dim=1, keepdim=True).clamp(min=1e-8) / 127.0
        self.register_buffer("qweight", torch.round(w / scale).to(torch.int8))
        self.register_buffer("scale", scale)
        self.register_buffer("bias", linear.bias.detach().clone())

    def forward(self, x):
        w = self.qweight.to(x.dtype) * self.scale
        return torch.nn.functional.linear(x, w, self.bias)


def quantize_(model):
    for name, child in list(model.named_children()):
        if isinstance(child, nn.Linear):
            setattr(model, name, Int8Linear(child))
    return model


model = Classifier().eval()
compiled = torch.compile(model, backend="aot_eager")

x_val = torch.randn(256, 24)
with torch.no_grad():
    ref = compiled(x_val)
    for i in range(3):
        batch = torch.randn(32, 24)
        print(f"fp32 batch {i}: {compiled(batch).argmax(-1)[:8].tolist()}")

    # Memory budget on the serving box: move to int8 weights.
    quantize_(model)
    q = compiled(x_val)
    agree = (q.argmax(-1) == ref.argmax(-1)).float().mean().item()
    print(f"int8 agreement with fp32: {agree:.3f}")
    for i in range(3):
        batch = torch.randn(32, 24)
        print(f"int8 batch {i}: {compiled(batch).argmax(-1)[:8].tolist()}")
