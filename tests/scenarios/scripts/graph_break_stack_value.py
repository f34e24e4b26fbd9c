import torch
from torch import nn

torch.manual_seed(0)


class Pooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x, mask):
        h = self.proj(x)
        n = int(mask.sum().item())  # number of real rows: graph break
        return h[:n].mean(0)


model = Pooler()
compiled = torch.compile(model, backend="aot_eager")

for valid in [5, 7, 6, 8]:
    x = torch.randn(8, 16)
    mask = torch.zeros(8)
    mask[:valid] = 1
    with torch.no_grad():
        out = compiled(x, mask)
    print(f"valid {valid} out {out.norm().item():.4f}")
