import torch
from torch import nn

torch.manual_seed(0)


class BatchMoE(nn.Module):
    """Route each batch to its top-2 experts (batch-level routing)."""

    def __init__(self, dim=16, n_experts=4):
        super().__init__()
        self.router = nn.Linear(dim, n_experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))

    def forward(self, x):
        scores = self.router(x).softmax(-1).mean(0)
        top = scores.topk(2).indices.tolist()  # chosen experts, as Python ints
        out = sum(scores[e] * self.experts[e](x) for e in top)
        return out / scores[top].sum()


model = BatchMoE()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.5)

for step in range(8):
    x = torch.randn(32, 16) + step % 3
    loss = compiled(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
