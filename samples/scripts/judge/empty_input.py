"""empty_input: a size of 0 behind another guard.

A message-passing step over a graph: node features x [nodes, 8] and an
edge list edge_index [2, edges]. Graphs of 12/24, 17/32 and 9/16 make both
dims dynamic (0/1); the last graph has one node and no edges. Its compile
(0/2) fails the dynamic entry first on a stride relation of the empty
edge_index, but what it breaks is the 0/1 specialisation.
"""
import torch

torch.manual_seed(0)


def propagate(x, edge_index):
    src, dst = edge_index[0], edge_index[1]
    out = torch.zeros_like(x).index_add_(0, dst, x[src])
    return torch.relu(out + x)


compiled = torch.compile(propagate, backend="aot_eager")
for nodes, edges in [(12, 24), (17, 32), (9, 16), (1, 0)]:
    x = torch.randn(nodes, 8)
    edge_index = torch.randint(0, nodes, (2, edges))
    compiled(x, edge_index)
