"""global_flag, after: guardscope's fix for the before log applied: the flag
read outside the compiled functions, one compiled function per setting.
(The fix offered before, passing the flag in as an argument, still compiled
once per value: a recompile of the same change.)"""
import torch

torch.manual_seed(0)

USE_FAST_PATH = False


def fast(x):
    return x + 1


def slow(x):
    return torch.cos(x) + 1


compiled_fast = torch.compile(fast, backend="aot_eager")
compiled_slow = torch.compile(slow, backend="aot_eager")
for step in range(1, 6):
    USE_FAST_PATH = step >= 3
    x = torch.randn(4)
    y = compiled_fast(x) if USE_FAST_PATH else compiled_slow(x)
