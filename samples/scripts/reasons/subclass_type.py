"""subclass_type: a module compiled with a plain Parameter, then the weight is a tensor subclass.

The Linear's weight is replaced by a Parameter holding a tensor subclass (what
a quantisation library's in-place conversion does); the type guard on the
weight names the subclass (0/1).
"""
import torch

torch.manual_seed(0)


class Tagged(torch.Tensor):
    pass


model = torch.nn.Linear(4, 4)
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(2, 4)
compiled(x)                                                           # 0/0
model.weight = torch.nn.Parameter(model.weight.detach().as_subclass(Tagged))
compiled(x)                                                           # 0/1: type names Tagged
