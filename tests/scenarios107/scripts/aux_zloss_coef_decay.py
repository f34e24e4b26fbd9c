"""Switch-style MoE language model whose load-balancing and router z-loss
coefficients live on the MoE layer and are decayed every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

V, D, E = 96, 32, 4


class SwitchFFN(nn.Module):
    def __init__(self, d, n_experts, balance_coef=0.01, z_coef=0.001):
        super().__init__()
        self.router = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))
            for _ in range(n_experts)
        )
        self.balance_coef = balance_coef
        self.z_coef = z_coef

    def forward(self, x):
        logits = self.router(x)
        probs = logits.softmax(-1)
        top = probs.argmax(-1)
        mask = F.one_hot(top, probs.size(-1)).to(x.dtype)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            out = out + mask[:, e:e + 1] * probs[:, e:e + 1] * expert(x)
        frac_tokens = mask.mean(0)
        frac_probs = probs.mean(0)
        balance = probs.size(-1) * (frac_tokens * frac_probs).sum()
        z = torch.logsumexp(logits, dim=-1).pow(2).mean()
        aux = self.balance_coef * balance + self.z_coef * z
        return out, aux


class TinyMoELM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.norm = nn.LayerNorm(D)
        self.moe = SwitchFFN(D, E)
        self.out = nn.Linear(D, V)

    def forward(self, ids, targets):
        h = self.emb(ids).flatten(0, 1)
        m, aux = self.moe(self.norm(h))
        logits = self.out(h + m)
        return F.cross_entropy(logits, targets.flatten()) + aux


model = TinyMoELM()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(ids, targets):
    loss = model(ids, targets)
    loss.backward()
    return loss


for epoch in range(3):
    # strong balancing pressure at the start, relaxed as routing settles
    model.moe.balance_coef = 0.01 * 0.5 ** epoch
    model.moe.z_coef = 0.001 * 0.5 ** epoch
    for step in range(3):
        ids = torch.randint(0, V, (4, 16))
        opt.zero_grad()
        loss = train_step(ids, torch.roll(ids, -1, dims=1))
        opt.step()
    print(f"epoch {epoch} balance_coef={model.moe.balance_coef} loss={loss.item():.4f}")
