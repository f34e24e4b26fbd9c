"""Elastic Weight Consolidation over a sequence of permuted-input tasks.

After each task the diagonal Fisher information is estimated from squared
gradients of sampled log-likelihoods and stored, together with a copy of the
parameters, as one more entry of the EWC penalty's list. The training step,
task loss plus EWC penalty, is compiled.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EWCPenalty(nn.Module):
    def __init__(self, model, lam):
        super().__init__()
        self.model = model
        self.lam = lam
        self.consolidated = []

    @torch.no_grad()
    def consolidate(self, x, n_samples=32):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}
        for i in range(n_samples):
            self.model.zero_grad()
            with torch.enable_grad():
                logits = self.model(x[i : i + 1])
                y = torch.distributions.Categorical(logits=logits).sample()
                F.cross_entropy(logits, y).backward()
            for n, p in self.model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 / n_samples
        anchor = {n: p.detach().clone() for n, p in self.model.named_parameters()}
        self.consolidated.append((fisher, anchor))

    def forward(self):
        total = 0.0
        for fisher, anchor in self.consolidated:
            for n, p in self.model.named_parameters():
                total = total + (fisher[n] * (p - anchor[n]) ** 2).sum()
        return self.lam / 2 * total


model = nn.Sequential(nn.Linear(36, 64), nn.ReLU(), nn.Linear(64, 10))
ewc = EWCPenalty(model, lam=100.0)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def train_step(x, y):
    loss = F.cross_entropy(model(x), y) + ewc()
    loss.backward()
    return loss


base_x = torch.randn(128, 36)
base_y = torch.randint(0, 10, (128,))
for task in range(3):
    perm = torch.randperm(36)
    x = base_x[:, perm]
    for step in range(4):
        idx = torch.randint(0, 128, (32,))
        opt.zero_grad()
        loss = train_step(x[idx], base_y[idx])
        opt.step()
    ewc.consolidate(x)
    print(f"task {task}: loss {loss.item():.3f}, {len(ewc.consolidated)} tasks consolidated")
