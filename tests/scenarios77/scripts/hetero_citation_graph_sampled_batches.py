"""Heterogeneous citation graph (papers, authors, venues): venue classification of papers
with sampled subgraphs and a relation-typed message passing network (R-GCN style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N = {"paper": 120, "author": 80, "venue": 6}
DIM = {"paper": 16, "author": 8, "venue": 4}
RELATIONS = [("author", "writes", "paper"), ("paper", "cites", "paper"), ("venue", "hosts", "paper")]


def build_graph(gen):
    feats = {t: torch.randn(n, DIM[t], generator=gen) for t, n in N.items()}
    labels = torch.randint(0, 3, (N["paper"],), generator=gen)
    edges = {
        "writes": torch.stack([torch.randint(0, N["author"], (300,), generator=gen),
                               torch.randint(0, N["paper"], (300,), generator=gen)]),
        "cites": torch.stack([torch.randint(0, N["paper"], (400,), generator=gen),
                              torch.randint(0, N["paper"], (400,), generator=gen)]),
        # only part of the papers have venue metadata
        "hosts": torch.stack([torch.randint(0, N["venue"], (12,), generator=gen),
                              torch.randint(0, 30, (12,), generator=gen)]),
    }
    return feats, edges, labels


def sample_subgraph(seeds, feats, edges):
    """Keep the edges that point into the seed papers (one hop)."""
    local = torch.full((N["paper"],), -1, dtype=torch.long)
    local[seeds] = torch.arange(seeds.numel())
    x = {"paper": feats["paper"][seeds]}
    rel_edges = {}
    for src_type, rel, _ in RELATIONS:
        src, dst = edges[rel]
        keep = local[dst] >= 0
        if not bool(keep.any()):
            continue
        src, dst = src[keep], local[dst[keep]]
        uniq, src_local = torch.unique(src, return_inverse=True)
        key = src_type if src_type != "paper" else "paper_nbr"
        x[key] = feats[src_type][uniq]
        rel_edges[rel] = (src_local, dst, key)
    return x, rel_edges


class RGCNLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.ModuleDict({"paper": nn.Linear(DIM["paper"], hidden), "paper_nbr": nn.Linear(DIM["paper"], hidden),
                                   "author": nn.Linear(DIM["author"], hidden), "venue": nn.Linear(DIM["venue"], hidden)})
        self.rel = nn.ModuleDict({rel: nn.Linear(hidden, hidden, bias=False) for _, rel, _ in RELATIONS})

    def forward(self, x, rel_edges):
        h = self.proj["paper"](x["paper"])
        out = h.clone()
        for rel, (src, dst, key) in rel_edges.items():
            msg = self.rel[rel](self.proj[key](x[key]))[src]
            deg = torch.zeros(h.shape[0]).index_put((dst,), torch.ones(dst.shape[0]), accumulate=True)
            deg = deg.clamp_min(1).unsqueeze(-1)
            out = out.index_put((dst,), msg / deg[dst], accumulate=True)
        return F.relu(out)


class VenueClassifier(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.layer = RGCNLayer(hidden)
        self.out = nn.Linear(hidden, 3)

    def forward(self, x, rel_edges):
        return self.out(self.layer(x, rel_edges))


def main():
    gen = torch.Generator().manual_seed(5)
    feats, edges, labels = build_graph(gen)
    model = VenueClassifier()
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(3):
        perm = torch.randperm(N["paper"], generator=gen)
        for i in range(0, N["paper"], 24):
            seeds = perm[i:i + 24]
            x, rel_edges = sample_subgraph(seeds, feats, edges)
            loss = F.cross_entropy(compiled(x, rel_edges), labels[seeds])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
