"""Tiny MoE language model: top-1 routing with a capacity factor that is
annealed during pretraining (tokens over an expert's capacity are dropped)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, N_EXP, SEQ, BATCH = 96, 32, 4, 16, 4


class Top1MoE(nn.Module):
    def __init__(self, d, n_experts, capacity_factor=1.0):
        super().__init__()
        self.router = nn.Linear(d, n_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(n_experts, d, 2 * d) * 0.05)
        self.w_out = nn.Parameter(torch.randn(n_experts, 2 * d, d) * 0.05)
        self.n_experts = n_experts
        self.capacity_factor = capacity_factor

    def forward(self, x):
        b, t, d = x.shape
        tokens = x.reshape(-1, d)
        probs = F.softmax(self.router(tokens), dim=-1)
        gate, expert = probs.max(dim=-1)
        capacity = math.ceil(self.capacity_factor * tokens.shape[0] / self.n_experts)
        onehot = F.one_hot(expert, self.n_experts)
        position = torch.cumsum(onehot, dim=0) * onehot
        keep = (position.sum(-1) <= capacity) & (position.sum(-1) > 0)
        out = torch.zeros_like(tokens)
        for e in range(self.n_experts):
            sel = (expert == e) & keep
            h = F.gelu(tokens @ self.w_in[e]) @ self.w_out[e]
            out = out + torch.where(sel[:, None], h * gate[:, None], 0.0)
        frac = onehot.float().mean(0)
        aux = self.n_experts * (frac * probs.mean(0)).sum()
        return out.reshape(b, t, d), aux


class TinyMoELM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D)
        self.norm = nn.LayerNorm(D)
        self.moe = Top1MoE(D, N_EXP)
        self.head = nn.Linear(D, VOCAB)

    def forward(self, ids, targets):
        h = self.embed(ids)
        moe_out, aux = self.moe(self.norm(h))
        h = h + moe_out
        logits = self.head(h)
        lm = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        return lm + 0.01 * aux, lm


model = TinyMoELM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
step_fn = torch.compile(model, backend="aot_eager")

# capacity factor schedule: generous early, tighter later
schedule = {0: 2.0, 4: 1.5, 8: 1.25}
for step in range(12):
    if step in schedule:
        model.moe.capacity_factor = schedule[step]
    ids = torch.randint(0, VOCAB, (BATCH, SEQ + 1))
    loss, lm = step_fn(ids[:, :-1], ids[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 3:
        print(f"step {step} cf={model.moe.capacity_factor} lm={lm.item():.3f}")
