import torch
from torch import nn

torch.manual_seed(0)


class Pooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(32, 1)

    def forward(self, x, padding_mask=None):
        logits = self.score(x).squeeze(-1)
        if padding_mask is not None:
            logits = logits.masked_fill(padding_mask, float("-inf"))
        weights = logits.softmax(-1)
        return (weights.unsqueeze(-1) * x).sum(1)


model = Pooler()
compiled = torch.compile(model, backend="aot_eager")

for step in range(6):
    x = torch.randn(4, 10, 32)
    # batches from the bucketed loader need no mask; mixed ones do
    mask = None if step % 3 != 2 else torch.rand(4, 10) < 0.2
    out = compiled(x, padding_mask=mask)
    out.pow(2).mean().backward()
    print(f"step {step} masked {mask is not None} out {out.sum().item():.4f}")
