"""Message-passing GNN on small random molecular-like graphs of varying size.

Node and edge counts change from batch to batch; aggregation uses
index_add_ (sum) and scatter_reduce (amax).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MPLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim, dim)
        self.upd = nn.Linear(3 * dim, dim)

    def forward(self, h, src, dst):
        m = torch.relu(self.msg(torch.cat([h[src], h[dst]], dim=-1)))
        summed = torch.zeros_like(h).index_add_(0, dst, m)
        idx = dst.unsqueeze(-1).expand_as(m)
        mx = torch.zeros_like(h).scatter_reduce(0, idx, m, reduce="amax", include_self=False)
        return h + torch.tanh(self.upd(torch.cat([h, summed, mx], dim=-1)))


class GNN(nn.Module):
    def __init__(self, in_dim=8, dim=32, layers=2):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList(MPLayer(dim) for _ in range(layers))
        self.head = nn.Linear(dim, 1)

    def forward(self, x, src, dst, graph_id, n_graphs):
        h = self.embed(x)
        for layer in self.layers:
            h = layer(h, src, dst)
        pooled = torch.zeros(n_graphs, h.shape[1]).index_add_(0, graph_id, h)
        return self.head(pooled).squeeze(-1)


def random_batch(n_graphs):
    xs, srcs, dsts, gids = [], [], [], []
    offset = 0
    for g in range(n_graphs):
        n = int(torch.randint(5, 15, ()).item())
        e = int(torch.randint(n, 3 * n, ()).item())
        xs.append(torch.randn(n, 8))
        srcs.append(torch.randint(0, n, (e,)) + offset)
        dsts.append(torch.randint(0, n, (e,)) + offset)
        gids.append(torch.full((n,), g, dtype=torch.long))
        offset += n
    return torch.cat(xs), torch.cat(srcs), torch.cat(dsts), torch.cat(gids), torch.randn(n_graphs)


model = GNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")

for step in range(6):
    x, src, dst, gid, y = random_batch(4)
    pred = step_fn(x, src, dst, gid, 4)
    loss = nn.functional.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} nodes {x.shape[0]} edges {src.shape[0]} loss {loss.item():.4f}")
