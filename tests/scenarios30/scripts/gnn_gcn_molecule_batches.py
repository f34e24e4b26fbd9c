"""Training a two-layer GCN on batches of small molecule graphs.

Each batch packs several graphs into one big disconnected graph (node
features stacked, edges offset), as graph libraries do. Messages are summed
with index_add_ and normalised by the node degrees of that batch.
"""

import torch
from torch import nn

torch.manual_seed(0)


def random_molecule(n_atoms):
    # a chain with a few extra ring bonds
    src = list(range(n_atoms - 1))
    dst = list(range(1, n_atoms))
    for _ in range(n_atoms // 4):
        a, b = torch.randint(0, n_atoms, (2,)).tolist()
        if a != b:
            src.append(a)
            dst.append(b)
    edges = torch.tensor([src + dst, dst + src])  # undirected
    return torch.randn(n_atoms, 16), edges


def collate(graphs):
    xs, edges, batch, offset = [], [], [], 0
    for gi, (x, e) in enumerate(graphs):
        xs.append(x)
        edges.append(e + offset)
        batch.append(torch.full((x.shape[0],), gi))
        offset += x.shape[0]
    return torch.cat(xs), torch.cat(edges, 1), torch.cat(batch)


class GCN(nn.Module):
    def __init__(self, dim=16, hidden=32):
        super().__init__()
        self.l1 = nn.Linear(dim, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.readout = nn.Linear(hidden, 1)

    def propagate(self, h, edge_index):
        src, dst = edge_index
        deg = torch.zeros(h.shape[0]).index_add_(0, dst, torch.ones(dst.shape[0])) + 1
        norm = deg.rsqrt()
        msg = h[src] * (norm[src] * norm[dst]).unsqueeze(-1)
        return torch.zeros_like(h).index_add_(0, dst, msg) + h / deg.unsqueeze(-1)

    def forward(self, x, edge_index, batch, n_graphs):
        h = torch.relu(self.propagate(self.l1(x), edge_index))
        h = torch.relu(self.propagate(self.l2(h), edge_index))
        pooled = torch.zeros(n_graphs, h.shape[1]).index_add_(0, batch, h)
        return self.readout(pooled).squeeze(-1)


model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")

for step in range(6):
    graphs = [random_molecule(int(n)) for n in torch.randint(6, 20, (8,))]
    x, edge_index, batch = collate(graphs)
    target = torch.randn(8)
    pred = step_fn(x, edge_index, batch, 8)
    loss = nn.functional.mse_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} atoms {x.shape[0]} bonds {edge_index.shape[1]} loss {loss.item():.4f}")
