import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_NODES, NUM_EDGES, FEATS, CLASSES = 120, 480, 8, 3


def random_graph():
    src = torch.randint(0, NUM_NODES, (NUM_EDGES,))
    dst = torch.randint(0, NUM_NODES, (NUM_EDGES,))
    # make it undirected
    return torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])


class MeanConv(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.lin_self = nn.Linear(din, dout)
        self.lin_nbr = nn.Linear(din, dout, bias=False)

    def forward(self, x, edge_index, edge_weight):
        src, dst = edge_index
        msg = x[src] * edge_weight.unsqueeze(1)
        agg = torch.zeros_like(x).scatter_add(0, dst.unsqueeze(1).expand_as(msg), msg)
        deg = torch.zeros(x.shape[0]).scatter_add(0, dst, edge_weight).clamp_min(1.0)
        return self.lin_self(x) + self.lin_nbr(agg / deg.unsqueeze(1))


class NodeClassifier(nn.Module):
    def __init__(self, edge_drop=0.2):
        super().__init__()
        self.edge_drop = edge_drop
        self.conv1 = MeanConv(FEATS, 32)
        self.conv2 = MeanConv(32, CLASSES)

    def forward(self, x, edge_index):
        w = torch.ones(edge_index.shape[1])
        if self.training:
            w = (torch.rand_like(w) > self.edge_drop).float()
        h = F.relu(self.conv1(x, edge_index, w))
        h = F.dropout(h, 0.3, self.training)
        return self.conv2(h, edge_index, w)


x = torch.randn(NUM_NODES, FEATS)
y = torch.randint(0, CLASSES, (NUM_NODES,))
edge_index = random_graph()
train_mask = torch.rand(NUM_NODES) < 0.6

model = NodeClassifier()
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
compiled = torch.compile(model, backend="aot_eager")

for epoch in range(6):
    model.train()
    for _ in range(3):
        out = compiled(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = compiled(x, edge_index).argmax(1)
    acc = (pred[~train_mask] == y[~train_mask]).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val_acc {acc:.3f}")
