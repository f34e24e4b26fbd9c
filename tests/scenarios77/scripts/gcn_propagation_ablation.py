"""Ablation of graph propagation settings for an SGC/GCN node classifier on a
synthetic stochastic-block-model graph with a dense adjacency matrix."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_NODES, N_FEAT, N_CLASSES = 150, 12, 3


def sbm_graph(gen):
    labels = torch.randint(0, N_CLASSES, (N_NODES,), generator=gen)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    prob = torch.where(same, torch.tensor(0.08), torch.tensor(0.01))
    upper = torch.triu(torch.rand(N_NODES, N_NODES, generator=gen) < prob, diagonal=1)
    adj = (upper | upper.T).float()
    feats = F.one_hot(labels, N_CLASSES).float() @ torch.randn(N_CLASSES, N_FEAT, generator=gen)
    feats = feats + 1.5 * torch.randn(N_NODES, N_FEAT, generator=gen)
    return adj, feats, labels


def propagate(adj, x, norm, hops, self_loops):
    if self_loops:
        adj = adj + torch.eye(adj.shape[0])
    deg = adj.sum(1)
    if norm == "sym":
        d = deg.clamp_min(1).rsqrt()
        a_hat = torch.diag_embed(d) @ adj @ torch.diag_embed(d)
    elif norm == "rw":
        a_hat = adj / deg.clamp_min(1).unsqueeze(1)
    else:
        a_hat = adj
    return torch.linalg.matrix_power(a_hat, hops) @ x


class SGC(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(N_FEAT, N_CLASSES)

    def forward(self, adj, x, norm, hops, self_loops):
        return self.lin(propagate(adj, x, norm, hops, self_loops))


def run(config, adj, feats, labels, train_mask, step_fn):
    torch.manual_seed(1)
    model = SGC()
    opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
    for _ in range(15):
        logits = step_fn(model, adj, feats, **config)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(adj, feats, **config).argmax(-1)
    return (pred[~train_mask] == labels[~train_mask]).float().mean().item()


def main():
    gen = torch.Generator().manual_seed(2)
    adj, feats, labels = sbm_graph(gen)
    train_mask = torch.rand(N_NODES, generator=gen) < 0.3

    @torch.compile(backend="aot_eager")
    def train_forward(model, adj, x, norm, hops, self_loops):
        return model(adj, x, norm, hops, self_loops)

    grid = [(norm, hops, True) for norm, hops in itertools.product(["sym", "rw"], [1, 2, 3])]
    grid.append(("sym", 2, False))  # does the self loop matter?
    for norm, hops, self_loops in grid:
        config = {"norm": norm, "hops": hops, "self_loops": self_loops}
        acc = run(config, adj, feats, labels, train_mask, train_forward)
        print(f"{config}: test acc {acc:.3f}")


if __name__ == "__main__":
    main()
