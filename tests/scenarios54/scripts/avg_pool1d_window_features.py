import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# each deployed model smooths the raw signal with its own window
MODELS = {
    "vibration_small": {"window": 4, "stride": 2},
    "vibration_large": {"window": 8, "stride": 4},
    "acoustic": {"window": 16, "stride": 8},
}


class FeatureExtractor(nn.Module):
    def __init__(self, out_dim=12):
        super().__init__()
        self.conv = nn.Conv1d(2, 8, 3, padding=1)
        self.head = nn.Linear(16, out_dim)

    def forward(self, signal, window, stride):
        h = F.gelu(self.conv(signal))
        pooled = F.avg_pool1d(h, kernel_size=window, stride=stride)
        stats = torch.cat([pooled.mean(-1), pooled.amax(-1)], dim=-1)
        return self.head(stats)


extractor = FeatureExtractor().eval()
extract = torch.compile(extractor, backend="aot_eager")

with torch.no_grad():
    for rnd in range(2):
        for name, cfg in MODELS.items():
            signal = torch.randn(4, 2, 128)
            feats = extract(signal, cfg["window"], cfg["stride"])
            print(f"round {rnd} {name}: {tuple(feats.shape)} norm={feats.norm().item():.4f}")
