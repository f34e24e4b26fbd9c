import functools

import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def apply_activation(x, act):
    return act(x * 2.0) + 1.0


x = torch.randn(8, 16)
for step in range(6):
    clip = 1.0 + step
    act = functools.partial(torch.clamp, min=-clip, max=clip)
    out = apply_activation(x, act)
    print(f"step {step} clip {clip} out {out.sum().item():.4f}")
