"""shape_spec, after: guardscope's other fix for the before log applied, the
dim declared when compiling: torch.compile(..., dynamic_shapes=ShapesSpec({"x":
TensorSpec([ShapeVar("x_0"), None])})) with ShapesSpec, TensorSpec and
ShapeVar from torch.fx.experimental.dynamic_spec."""
import torch
from torch.fx.experimental.dynamic_spec import ShapesSpec, ShapeVar, TensorSpec

torch.manual_seed(0)


def f(x):
    return torch.tanh(x @ x.T).sum(dim=1)


compiled = torch.compile(
    f, backend="aot_eager", dynamic_shapes=ShapesSpec({"x": TensorSpec([ShapeVar("x_0"), None])})
)
for n in (8, 5, 3, 6):
    x = torch.randn(n, 4)
    y = compiled(x)
