"""Self-labelling (SeLa-style) clustering: pseudo-labels from Sinkhorn-Knopp."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N, D, K = 256, 24, 8


@torch.compile(backend="aot_eager")
def sinkhorn_knopp(logits, n_iters):
    q = torch.softmax(logits / 0.1, dim=1).t()
    r = torch.full((q.shape[0], 1), 1.0 / q.shape[0])
    c = torch.full((1, q.shape[1]), 1.0 / q.shape[1])
    for _ in range(n_iters):
        q = q * (r / q.sum(dim=1, keepdim=True))
        q = q * (c / q.sum(dim=0, keepdim=True))
    err = (q.sum(dim=1, keepdim=True) - r).abs().max()
    return q.t() * q.shape[1], err


net = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 32))
head = nn.Linear(32, K)
opt = torch.optim.Adam(list(net.parameters()) + list(head.parameters()), lr=1e-3)

data = torch.randn(N, D) + torch.randn(K, D).repeat_interleave(N // K, 0)

n_iters = 3
tol = 1e-3
for epoch in range(6):
    with torch.no_grad():
        logits = head(net(data))
    q, err = sinkhorn_knopp(logits, n_iters)
    labels = q.argmax(dim=1)
    if err.item() > tol and n_iters < 20:
        n_iters = min(2 * n_iters, 20)
    for i in range(0, N, 64):
        out = head(net(data[i:i + 64]))
        loss = F.cross_entropy(out, labels[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} err {err.item():.2e} iters {n_iters}")
