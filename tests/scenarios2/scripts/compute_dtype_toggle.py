import torch
from torch import nn

torch.manual_seed(0)


class MixedPrecisionMLP(nn.Module):
    """Keeps fp32 master weights; casts weights and activations to compute_dtype on the fly."""

    def __init__(self, dim=32, compute_dtype=torch.float32):
        super().__init__()
        self.compute_dtype = compute_dtype
        self.fc1 = nn.Linear(dim, 64)
        self.fc2 = nn.Linear(64, 4)

    def forward(self, x):
        dt = self.compute_dtype
        h = nn.functional.linear(x.to(dt), self.fc1.weight.to(dt), self.fc1.bias.to(dt))
        h = torch.relu(h)
        out = nn.functional.linear(h, self.fc2.weight.to(dt), self.fc2.bias.to(dt))
        return out.float()


model = MixedPrecisionMLP()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(8):
    # warm up in fp32, then bf16 compute; every 4th step re-checks the loss in fp32
    model.compute_dtype = torch.float32 if step < 2 or step % 4 == 3 else torch.bfloat16
    x = torch.randn(16, 32)
    y = torch.randint(0, 4, (16,))
    loss = nn.functional.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} {model.compute_dtype} loss {loss.item():.4f}")
