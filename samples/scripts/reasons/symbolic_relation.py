"""symbolic_relation: two dynamic dims the traced code related, then a call that breaks it.

`x + y` with both marked dynamic makes the graph assume x.size(0) == y.size(0)
(a relational guard between two symbols); a call where x and y have their own
sizes, each broadcastable, fails it (0/1).
"""
import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager", dynamic=True)
def f(x, y):
    return x + y


f(torch.randn(4, 3), torch.randn(4, 3))     # 0/0: sizes equal
f(torch.randn(5, 3), torch.randn(1, 3))     # 0/1: relation broken
