import torch
from torch import nn

torch.manual_seed(0)
torch._dynamo.config.recompile_limit = 3
torch._dynamo.config.fail_on_recompile_limit_hit = True  # fail loudly in CI


class Denoiser(nn.Module):
    def __init__(self, steps=50):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 16))
        self.register_buffer("alpha_bar", torch.linspace(0.99, 0.01, steps))
        self.t = 0  # current timestep, set by the sampler

    def forward(self, x):
        a = self.alpha_bar[self.t]
        return (x - (1 - a).sqrt() * self.net(x)) / a.sqrt()


model = Denoiser()
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(4, 16)

with torch.no_grad():
    for t in range(10):
        model.t = t
        try:
            x = compiled(x)
        except Exception as exc:  # noqa: BLE001
            print(f"t={t} failed: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            break
        print(f"t={t} norm {x.norm().item():.4f}")
