"""Breaks the graph once on every call and never recompiles."""

import torch


@torch.compile(backend="eager")
def step(x):
    x = x * 2
    torch._dynamo.graph_break()
    return x + 1


for _ in range(3):
    step(torch.ones(4))
print("graph_break: done", flush=True)
