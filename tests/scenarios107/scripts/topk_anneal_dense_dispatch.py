"""Top-k MoE classifier where k is annealed from 2 to 1 during training.

Tokens are routed with torch.topk, the gates are renormalised and scattered
back into a dense (tokens, experts) combine matrix; all experts run batched
through torch.einsum over a stacked weight tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, H, E, C = 32, 64, 4, 5


class BatchedExperts(nn.Module):
    def __init__(self, n, d, h):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(n, d, h) * d ** -0.5)
        self.w2 = nn.Parameter(torch.randn(n, h, d) * h ** -0.5)

    def forward(self, x):
        # x: (tokens, d) -> (experts, tokens, d)
        h = F.gelu(torch.einsum("td,edh->eth", x, self.w1))
        return torch.einsum("eth,ehd->etd", h, self.w2)


class TopKMoEClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(16, D)
        self.router = nn.Linear(D, E, bias=False)
        self.experts = BatchedExperts(E, D, H)
        self.head = nn.Linear(D, C)

    def forward(self, x, k):
        b, s, _ = x.shape
        h = self.embed(x).reshape(b * s, D)
        probs = self.router(h).softmax(dim=-1)
        gate, idx = torch.topk(probs, k, dim=-1)
        gate = gate / gate.sum(dim=-1, keepdim=True)
        combine = torch.zeros_like(probs).scatter(1, idx, gate)
        out = self.experts(h)
        h = h + torch.einsum("te,etd->td", combine, out)
        return self.head(h.reshape(b, s, D).mean(dim=1))


model = TopKMoEClassifier()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
fwd = torch.compile(model, backend="aot_eager")

# anneal the number of active experts per token: dense-ish early, sparse late
k_schedule = {0: 2, 1: 2, 2: 1, 3: 1}
for epoch in range(4):
    k = k_schedule[epoch]
    for step in range(3):
        x = torch.randn(8, 12, 16)
        y = torch.randint(0, C, (8,))
        loss = F.cross_entropy(fwd(x, k), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} top_k={k} loss={loss.item():.4f}")
