"""shape_static, after: guardscope's fix for the before log applied:
torch._dynamo.mark_dynamic(x, 0) before the call (dynamic=False kept).
"""
import torch

torch.manual_seed(0)


def f(x):
    return torch.tanh(x @ x.T).sum(dim=1)


compiled = torch.compile(f, backend="aot_eager", dynamic=False)
for n in (8, 5, 3):
    x = torch.randn(n, 4)
    torch._dynamo.mark_dynamic(x, 0)
    y = compiled(x)
