"""class_attribute: a class attribute the forward reads, changed on the class after compiling.

`Scaled.forward` multiplies by `type(self).scale`, an int set on the class;
the training script raises it once (1 -> 2) for a second phase. Dynamo
guards the attribute through the object's type (`type(self).__mro__`), so
the next call recompiles (0/1).
"""
import torch

torch.manual_seed(0)


class Base(torch.nn.Module):
    scale = 1


class Scaled(Base):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x) * type(self).scale


model = torch.compile(Scaled(), backend="aot_eager")
x = torch.randn(2, 4)
model(x)                 # 0/0: scale 1
Base.scale = 2           # second phase
model(x)                 # 0/1: the class attribute changed
model(x)
