import torch
from torch import nn

torch.manual_seed(0)


class Packer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x):
        if x.shape[0] % 8 == 0:
            # fast path: process groups of 8 rows together
            g = x.view(-1, 8, 16).mean(1, keepdim=True).expand(-1, 8, -1).reshape(-1, 16)
            return self.proj(x + g)
        return self.proj(x)


model = Packer()
compiled = torch.compile(model, backend="aot_eager", dynamic=True)

for step, batch in enumerate([16, 24, 13, 32, 7, 40, 21]):
    y = compiled(torch.randn(batch, 16))
    print(f"step {step} batch {batch} out {tuple(y.shape)}")
