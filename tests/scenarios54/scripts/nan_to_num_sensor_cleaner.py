import torch
import torch.nn as nn
from dataclasses import dataclass

torch.manual_seed(0)


@dataclass
class SensorConfig:
    name: str
    channels: int
    nan_fill: float
    posinf_fill: float
    neginf_fill: float


SENSORS = [
    SensorConfig("thermo", 6, 0.0, 150.0, -40.0),
    SensorConfig("pressure", 6, 1.0, 1100.0, 0.0),
    SensorConfig("humidity", 6, 0.5, 100.0, 0.0),
]


class Cleaner(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.norm = nn.LayerNorm(channels)
        self.proj = nn.Linear(channels, 4)

    def forward(self, x, nan_fill, posinf_fill, neginf_fill):
        x = torch.nan_to_num(x, nan=nan_fill, posinf=posinf_fill, neginf=neginf_fill)
        return self.proj(self.norm(x))


cleaner = Cleaner(6)
cleaner.eval()
compiled = torch.compile(cleaner, backend="aot_eager")


def read_batch(cfg, n=32):
    x = torch.randn(n, cfg.channels) * 10
    mask = torch.rand(n, cfg.channels)
    x[mask < 0.05] = float("nan")
    x[(mask >= 0.05) & (mask < 0.08)] = float("inf")
    x[(mask >= 0.08) & (mask < 0.1)] = float("-inf")
    return x


with torch.no_grad():
    for sweep in range(2):
        for cfg in SENSORS:
            batch = read_batch(cfg)
            feats = compiled(batch, cfg.nan_fill, cfg.posinf_fill, cfg.neginf_fill)
            print(f"sweep {sweep} {cfg.name}: mean={feats.mean().item():.4f} finite={torch.isfinite(feats).all().item()}")
