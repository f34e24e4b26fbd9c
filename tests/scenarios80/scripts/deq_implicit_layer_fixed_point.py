# A small deep-equilibrium (DEQ) classifier: z* = tanh(W z* + U x) is found by
# fixed-point iteration until the relative update is below a tolerance; the
# number of sweeps is adapted from one batch to the next.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


class DEQBlock(nn.Module):
    def __init__(self, d_in=16, d_hidden=32):
        super().__init__()
        self.inj = nn.Linear(d_in, d_hidden)
        self.rec = nn.Linear(d_hidden, d_hidden, bias=False)
        with torch.no_grad():
            self.rec.weight.mul_(0.5 / self.rec.weight.norm(2))

    def f(self, z, x_inj):
        return torch.tanh(self.rec(z) + x_inj)


class DEQClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = DEQBlock()
        self.head = nn.Linear(32, 4)

    def forward(self, x, n_sweeps):
        x_inj = self.block.inj(x)
        z = torch.zeros(x.shape[0], 32)
        with torch.no_grad():
            for _ in range(n_sweeps):
                z = self.block.f(z, x_inj)
        # one step with gradient (one-step / Jacobian-free backward)
        z = self.block.f(z.detach(), x_inj)
        return self.head(z), z


def sweeps_needed(model, x, tol, max_iter=40):
    with torch.no_grad():
        x_inj = model.block.inj(x)
        z = torch.zeros(x.shape[0], 32)
        for k in range(1, max_iter + 1):
            z_new = model.block.f(z, x_inj)
            rel = torch.linalg.vector_norm(z_new - z) / (torch.linalg.vector_norm(z_new) + 1e-8)
            z = z_new
            if rel.item() < tol:
                return k
    return max_iter


model = DEQClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

X = torch.randn(512, 16)
y = (X[:, :4].argmax(dim=1))
tol = 1e-2
n_sweeps = 8
for epoch in range(3):
    perm = torch.randperm(512)
    for b in range(4):
        idx = perm[b * 128:(b + 1) * 128]
        logits, _ = compiled(X[idx], n_sweeps)
        loss = F.cross_entropy(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        n_sweeps = sweeps_needed(model, X[idx], tol)
    tol = tol * 0.3
    print(f"epoch {epoch} loss={loss.item():.4f} tol={tol:.1e} sweeps={n_sweeps}")
