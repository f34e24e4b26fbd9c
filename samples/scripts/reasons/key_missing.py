"""key_missing: a parameter the compiled forward reads is gone after compiling.

`torch.nn.utils.prune.l1_unstructured` replaces `fc.weight` by
`weight_orig` and a mask: the compiled code's accessor for
`_parameters['weight']` fails with `KeyError on ...` (0/1).
"""
import torch
import torch.nn.utils.prune as prune

torch.manual_seed(0)

model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(4, 8)
compiled(x)                                     # 0/0
prune.l1_unstructured(model[2], "weight", 0.5)  # the parameter moves to weight_orig
compiled(x)                                     # 0/1: KeyError on ..._parameters['weight']
compiled(x)
