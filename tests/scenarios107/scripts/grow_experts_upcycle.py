"""Sparse upcycling: start with two experts and add a new expert (copied from
the busiest one, plus noise) every two epochs, widening the router."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

D = 24


def make_expert():
    return nn.Sequential(nn.Linear(D, 48), nn.ReLU(), nn.Linear(48, D))


class GrowableMoE(nn.Module):
    def __init__(self, n_experts=2):
        super().__init__()
        self.router = nn.Linear(D, n_experts)
        self.experts = nn.ModuleList(make_expert() for _ in range(n_experts))

    @torch.no_grad()
    def add_expert(self, source):
        new = copy.deepcopy(self.experts[source])
        for p in new.parameters():
            p.add_(0.01 * torch.randn_like(p))
        self.experts.append(new)
        old = self.router
        self.router = nn.Linear(D, len(self.experts))
        self.router.weight[:-1].copy_(old.weight)
        self.router.bias[:-1].copy_(old.bias)
        self.router.weight[-1].copy_(old.weight[source])
        self.router.bias[-1].copy_(old.bias[source])

    def forward(self, x):
        w = self.router(x).softmax(-1)
        top_w, top_i = w.max(-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            sel = (top_i == i).unsqueeze(-1).to(x.dtype)
            out = out + sel * top_w.unsqueeze(-1) * expert(x)
        return x + out, w.mean(0)


moe = GrowableMoE()
head = nn.Linear(D, 1)


@torch.compile(backend="aot_eager")
def step_fn(x, y):
    h, load = moe(x)
    return F.mse_loss(head(h).squeeze(-1), y), load


def make_opt():
    return torch.optim.Adam(list(moe.parameters()) + list(head.parameters()), lr=1e-3)


opt = make_opt()
for epoch in range(6):
    if epoch in (2, 4):
        moe.add_expert(source=int(load.argmax()))
        opt = make_opt()
    for _ in range(2):
        x = torch.randn(64, D)
        y = x[:, :4].sum(-1)
        loss, load = step_fn(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} experts={len(moe.experts)} loss={loss.item():.4f}")
