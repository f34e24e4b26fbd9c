"""Heterogeneous molecular graph network with one weight per edge type.

Each batch's edges come as a dict {edge_type: (src, dst)}; some batches
contain rings/angles and others do not, so the dict's keys vary.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

N_NODES = 40
DIM = 16
EDGE_TYPES = ["bond", "angle", "ring"]


class HeteroConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.rel = nn.ModuleDict({t: nn.Linear(DIM, DIM, bias=False) for t in EDGE_TYPES})
        self.self_loop = nn.Linear(DIM, DIM)

    def forward(self, h, edges):
        out = self.self_loop(h)
        for etype, (src, dst) in edges.items():
            msg = self.rel[etype](h[src])
            out = out.index_add(0, dst, msg)
        return torch.relu(out)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(6, DIM)
        self.convs = nn.ModuleList([HeteroConv(), HeteroConv()])
        self.out = nn.Linear(DIM, 1)

    def forward(self, x, edges):
        h = self.inp(x)
        for conv in self.convs:
            h = conv(h, edges)
        return self.out(h.mean(0))


def make_edges(kinds, n_edges=60):
    return {k: (torch.randint(0, N_NODES, (n_edges,)), torch.randint(0, N_NODES, (n_edges,)))
            for k in kinds}


net = Net()
compiled = torch.compile(net, backend="aot_eager")
opt = torch.optim.SGD(net.parameters(), lr=1e-2)

batches = [["bond"], ["bond", "angle"], ["bond"], ["bond", "angle", "ring"], ["bond", "angle"]]
for step, kinds in enumerate(batches):
    x = torch.randn(N_NODES, 6)
    y = torch.randn(1)
    loss = (compiled(x, make_edges(kinds)) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} edge types {kinds} loss {loss.item():.4f}")
