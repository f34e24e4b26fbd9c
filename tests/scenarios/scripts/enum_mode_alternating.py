import enum

import torch
from torch import nn

torch.manual_seed(0)


class Pooling(enum.Enum):
    MEAN = "mean"
    MAX = "max"


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(24, 24)

    def forward(self, x, pooling):
        h = torch.tanh(self.proj(x))
        if pooling is Pooling.MEAN:
            return h.mean(1)
        return h.amax(1)


model = Encoder()
compiled = torch.compile(model, backend="aot_eager")

# the retrieval index uses max pooling, the classifier mean pooling
for step in range(6):
    pooling = Pooling.MEAN if step % 2 == 0 else Pooling.MAX
    x = torch.randn(4, 7, 24)
    out = compiled(x, pooling)
    print(f"step {step} {pooling.value} {out.sum().item():.4f}")
