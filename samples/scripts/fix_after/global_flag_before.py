"""global_flag, before: a module-level flag the compiled function reads is
switched on at step 3: the frame recompiles."""
import torch

torch.manual_seed(0)

USE_FAST_PATH = False


def f(x):
    if USE_FAST_PATH:
        return x + 1
    return torch.cos(x) + 1


compiled = torch.compile(f, backend="aot_eager")
for step in range(1, 6):
    USE_FAST_PATH = step >= 3
    y = compiled(torch.randn(4))
