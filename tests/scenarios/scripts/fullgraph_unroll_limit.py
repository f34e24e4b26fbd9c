import torch
from torch import nn

torch._dynamo.config.recompile_limit = 3

torch.manual_seed(0)

denoiser = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Linear(32, 16))


@torch.compile(backend="aot_eager", fullgraph=True)
def sample(x, num_steps):
    for i in range(num_steps):
        x = x - denoiser(x) / num_steps
    return x


# progressive sampling: one more denoising step per round
for rnd in range(6):
    steps = 2 + rnd
    try:
        with torch.no_grad():
            out = sample(torch.randn(4, 16), steps)
        print(f"round {rnd} steps {steps} norm {out.norm().item():.3f}")
    except Exception as e:
        print(f"round {rnd} steps {steps} failed: {type(e).__name__}: {str(e).splitlines()[0]}")
        break
