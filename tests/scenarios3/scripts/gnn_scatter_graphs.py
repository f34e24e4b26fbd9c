import torch
from torch import nn

torch.manual_seed(0)


class MaxAggConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim, dim)

    def forward(self, h, edge_index):
        src, dst = edge_index
        messages = torch.relu(self.msg(torch.cat([h[src], h[dst]], -1)))
        out = torch.zeros_like(h)
        index = dst.unsqueeze(-1).expand_as(messages)
        return h + out.scatter_reduce(0, index, messages, reduce="amax", include_self=False)


class GraphClassifier(nn.Module):
    def __init__(self, feats=7, dim=32, classes=2):
        super().__init__()
        self.embed = nn.Linear(feats, dim)
        self.convs = nn.ModuleList([MaxAggConv(dim), MaxAggConv(dim)])
        self.head = nn.Linear(dim, classes)

    def forward(self, x, edge_index):
        h = self.embed(x)
        for conv in self.convs:
            h = conv(h, edge_index)
        return self.head(h.mean(0))


model = GraphClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# one molecule per step: every graph has its own number of atoms and bonds
for n_nodes, n_edges in [(12, 24), (17, 32), (9, 16), (23, 50), (1, 0)]:
    x = torch.randn(n_nodes, 7)
    edge_index = torch.randint(0, n_nodes, (2, n_edges))
    loss = nn.functional.cross_entropy(compiled(x, edge_index).unsqueeze(0), torch.tensor([1]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"atoms {n_nodes} bonds {n_edges} loss {loss.item():.4f}")
