import torch
import torch.nn as nn

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def summarize(activations, dim, correction):
    lse = torch.logsumexp(activations, dim=dim)
    spread = torch.std(activations, dim=dim, correction=correction)
    return torch.stack([lse.mean(), spread.mean(), spread.max()])


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 32))

    def forward(self, x):
        return self.net(x)


# each report aggregates over a different axis of the (batch, time, feature) activations
REPORTS = [
    {"name": "per_feature", "dim": 0, "correction": 1},
    {"name": "per_feature", "dim": 0, "correction": 1},
    {"name": "per_timestep", "dim": 1, "correction": 1},
    {"name": "population", "dim": -1, "correction": 0},
    {"name": "per_feature", "dim": 0, "correction": 1},
]

enc = Encoder().eval()
with torch.no_grad():
    for epoch, report in enumerate(REPORTS):
        batch = torch.randn(8, 10, 16) * (1 + 0.1 * epoch)
        acts = enc(batch)
        stats = summarize(acts, report["dim"], report["correction"])
        lse, mean_std, max_std = stats.tolist()
        print(f"epoch {epoch} [{report['name']}] lse={lse:.3f} std={mean_std:.3f} max={max_std:.3f}")
