import torch
import torch.nn as nn

torch.manual_seed(0)

CONTEXT, HORIZON, D = 48, 12, 32


class MixerForecaster(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.input_proj = nn.Linear(channels, D)
        self.time_mix = nn.Sequential(nn.Linear(CONTEXT, 64), nn.GELU(), nn.Linear(64, HORIZON))
        self.norm = nn.LayerNorm(D)
        self.head = nn.Linear(D, 1)

    def forward(self, x):  # x: (batch, context, channels); target is channel 0
        h = self.norm(self.input_proj(x))          # (B, L, D)
        h = self.time_mix(h.transpose(1, 2))       # (B, D, H)
        return self.head(h.transpose(1, 2)).squeeze(-1)  # (B, H)


def make_dataset(channels, n=128):
    t = torch.arange(CONTEXT + HORIZON, dtype=torch.float32)
    phase = torch.rand(n, 1, channels) * 6.28
    freq = 0.05 + 0.1 * torch.rand(1, 1, channels)
    series = torch.sin(freq * t[None, :, None] + phase) + 0.1 * torch.randn(n, t.numel(), channels)
    series[..., 0] += 0.5 * series[..., 1:].mean(-1)
    return series[:, :CONTEXT], series[:, CONTEXT:, 0]


# the shared trunk is pre-trained on the first dataset, then each new
# dataset gets a fresh input projection for its own channel count
datasets = [("electricity", 3), ("weather", 6), ("traffic", 4)]
model = MixerForecaster(datasets[0][1])
compiled = torch.compile(model, backend="aot_eager")

for name, channels in datasets:
    if model.input_proj.in_features != channels:
        model.input_proj = nn.Linear(channels, D)
    x, y = make_dataset(channels)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(4):
        idx = torch.randint(0, x.shape[0], (32,))
        loss = nn.functional.mse_loss(compiled(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: channels {channels} loss {loss.item():.4f}")
