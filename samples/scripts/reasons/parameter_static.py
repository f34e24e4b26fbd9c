"""parameter_static: a Parameter passed to a compiled function with a new size each call.

torch keeps the shapes of nn.Parameters static
(`torch._dynamo.config.force_parameter_static_shapes`, on by default), so
automatic dynamic shapes never free the dim: 10, 11 and 15 rows each compile
(0/1, 0/2, 0/3) where a plain tensor would have become dynamic at 0/1.
"""
import torch

torch.manual_seed(0)
w = torch.nn.Parameter(torch.randn(3, 2))


@torch.compile(backend="aot_eager")
def project(x):
    return x @ w


for rows in (4, 10, 11, 15, 15):
    project(torch.nn.Parameter(torch.randn(rows, 3)))
