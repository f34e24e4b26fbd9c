import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Expert(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return self.fc2(F.silu(self.fc1(x)))


class Top1MoE(nn.Module):
    def __init__(self, d=32, hidden=64, n_experts=4):
        super().__init__()
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList(Expert(d, hidden) for _ in range(n_experts))

    def forward(self, x):
        logits = self.gate(x)
        probs = logits.softmax(-1)
        choice = torch.argmax(probs, dim=-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            idx = torch.nonzero(choice == i).squeeze(-1)
            if idx.numel() == 0:
                continue
            y = expert(x[idx]) * probs[idx, i].unsqueeze(-1)
            out = out.index_add(0, idx, y)
        # load-balancing auxiliary loss
        frac = F.one_hot(choice, probs.shape[-1]).float().mean(0)
        aux = (frac * probs.mean(0)).sum() * probs.shape[-1]
        return out, aux


class Model(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.moe = Top1MoE(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        h = self.emb(tokens).flatten(0, 1)
        m, aux = self.moe(h)
        h = h + m
        return self.head(h), aux


model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
step_fn = torch.compile(model, backend="aot_eager")

for step in range(8):
    tokens = torch.randint(0, 64, (4, 16))
    targets = torch.roll(tokens, -1, dims=1).flatten()
    logits, aux = step_fn(tokens)
    loss = F.cross_entropy(logits, targets) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} aux {aux.item():.3f}")
