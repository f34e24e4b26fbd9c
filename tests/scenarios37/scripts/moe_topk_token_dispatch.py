"""Train a tiny token classifier with a top-2 mixture-of-experts feed-forward layer.

Tokens are sorted by expert and cut into one chunk per expert.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, D, N_EXPERTS, TOP_K, N_TAGS = 100, 32, 4, 2, 5


class Expert(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 2 * d)
        self.down = nn.Linear(2 * d, d)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class MoE(nn.Module):
    def __init__(self, d, n_experts, k):
        super().__init__()
        self.k = k
        self.n_experts = n_experts
        self.router = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList(Expert(d) for _ in range(n_experts))

    def forward(self, x):
        probs = self.router(x).softmax(dim=-1)
        weights, idx = probs.topk(self.k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        flat_idx = idx.reshape(-1)
        order = flat_idx.argsort(stable=True)
        token_of = order // self.k
        counts = torch.bincount(flat_idx, minlength=self.n_experts).tolist()
        chunks = x[token_of].split(counts)
        y = torch.cat([expert(c) for expert, c in zip(self.experts, chunks)])
        y = y * weights.reshape(-1)[order].unsqueeze(-1)
        out = torch.zeros_like(x).index_add_(0, token_of, y)
        # load-balancing auxiliary loss
        frac = F.one_hot(flat_idx, self.n_experts).float().mean(0)
        aux = self.n_experts * (frac * probs.mean(0)).sum()
        return out, aux


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.norm = nn.LayerNorm(D)
        self.moe = MoE(D, N_EXPERTS, TOP_K)
        self.head = nn.Linear(D, N_TAGS)

    def forward(self, tokens):
        h = self.emb(tokens).reshape(-1, D)
        m, aux = self.moe(self.norm(h))
        return self.head(h + m), aux


model = torch.compile(Tagger(), backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for step in range(10):
    tokens = torch.randint(0, VOCAB, (4, 8))
    tags = tokens % N_TAGS
    logits, aux = model(tokens)
    loss = F.cross_entropy(logits, tags.reshape(-1)) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss={loss.item():.4f} aux={aux.item():.3f}")
