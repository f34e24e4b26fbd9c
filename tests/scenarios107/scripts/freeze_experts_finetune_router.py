"""Fine-tune a pretrained-style top-2 MoE block: first everything trains,
then the experts are frozen and only the router and head are tuned."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D, E = 32, 4


class Top2MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(D, E, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, D)) for _ in range(E)
        )

    def forward(self, x):
        logits = self.router(x)
        vals, idx = logits.topk(2, dim=-1)
        gates = torch.full_like(logits, float("-inf")).scatter(-1, idx, vals).softmax(-1)
        stacked = torch.stack([e(x) for e in self.experts], dim=-2)  # (n, e, d)
        return (gates.unsqueeze(-1) * stacked).sum(-2)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(20, D)
        self.moe = Top2MoE()
        self.head = nn.Linear(D, 2)

    def forward(self, x):
        h = torch.tanh(self.proj(x))
        return self.head(h + self.moe(h))


model = Model()
cmodel = torch.compile(model, backend="aot_eager")
X = torch.randn(256, 20)
Y = (X[:, 0] * X[:, 1] > 0).long()


def run_epoch(opt):
    perm = torch.randperm(256)
    for i in range(0, 256, 64):
        b = perm[i:i + 64]
        loss = F.cross_entropy(cmodel(X[b]), Y[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
print("full", run_epoch(opt))

# phase 2: keep the experts, only adapt the routing
for p in model.moe.experts.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
for epoch in range(2):
    print("router-only", epoch, run_epoch(opt))
