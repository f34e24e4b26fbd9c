"""Token-choice sparse MoE layer (Switch/GShard style) in a tiny encoder.

Each token goes to its top-k experts; every expert takes at most
`capacity` tokens, computed from the number of tokens in the batch, and
overflow tokens are dropped (they pass through the residual only).
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class SparseMoE(nn.Module):
    def __init__(self, dim=32, n_experts=4, top_k=2, capacity_factor=1.25):
        super().__init__()
        self.n_experts = n_experts
        self.top_k = top_k
        self.capacity_factor = capacity_factor
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim)) for _ in range(n_experts)
        )

    def forward(self, x):
        b, s, d = x.shape
        tokens = x.reshape(-1, d)
        n_tokens = tokens.shape[0]
        capacity = math.ceil(self.capacity_factor * n_tokens * self.top_k / self.n_experts)

        probs = self.gate(tokens).softmax(-1)
        weights, chosen = probs.topk(self.top_k, dim=-1)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            mask = (chosen == e).any(-1)
            # position of each token in this expert's buffer
            pos = torch.cumsum(mask.long(), 0) - 1
            keep = (mask & (pos < capacity)).float().unsqueeze(-1)
            w = (weights * (chosen == e)).sum(-1, keepdim=True)
            out = out + keep * w * expert(tokens)
        load = (chosen[:, :1] == torch.arange(self.n_experts)).float().mean(0)
        aux = (probs.mean(0) * load).sum()
        return x + out.reshape(b, s, d), aux * self.n_experts


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.moe = SparseMoE(dim)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 2)

    def forward(self, ids):
        h, aux = self.moe(self.embed(ids))
        return self.head(self.norm(h).mean(1)), aux


model = Encoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

# batches come from a length-bucketed sampler: (batch size, seq len)
buckets = [(16, 24), (16, 24), (16, 32), (8, 48), (16, 24), (12, 40)]
for step, (bs, seq) in enumerate(buckets):
    ids = torch.randint(0, 100, (bs, seq))
    labels = torch.randint(0, 2, (bs,))
    logits, aux = compiled(ids)
    loss = F.cross_entropy(logits, labels) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} tokens {bs * seq} loss {loss.item():.4f}")
