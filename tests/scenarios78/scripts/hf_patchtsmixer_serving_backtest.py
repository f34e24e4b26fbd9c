import math

import torch
from transformers import PatchTSMixerConfig, PatchTSMixerForPrediction

torch.manual_seed(0)

CONTEXT, HORIZON, CHANNELS = 32, 8, 3

config = PatchTSMixerConfig(
    num_input_channels=CHANNELS,
    context_length=CONTEXT,
    prediction_length=HORIZON,
    patch_length=8,
    patch_stride=8,
    d_model=16,
    num_layers=2,
    expansion_factor=2,
    dropout=0.1,
    head_dropout=0.1,
    mode="common_channel",
    scaling="std",
)
model = PatchTSMixerForPrediction(config).eval()


@torch.compile(backend="aot_eager")
def forecast(past_values, future_values=None):
    out = model(past_values=past_values, future_values=future_values)
    return out.prediction_outputs, out.loss


def fetch_window(meter_id, t_start, length):
    """Readings of one meter from t_start on."""
    g = torch.Generator().manual_seed(meter_id * 1000 + t_start)
    t = torch.arange(t_start, t_start + length, dtype=torch.float32)
    base = torch.stack([torch.sin(2 * math.pi * t / (24 + 4 * c)) for c in range(CHANNELS)], dim=-1)
    return base * (1 + 0.1 * meter_id) + 0.1 * torch.randn(length, CHANNELS, generator=g)


def serve(request, t_end):
    windows = torch.stack([fetch_window(m, t_end - CONTEXT, CONTEXT) for m in request["meters"]])
    actuals = None
    if request.get("backtest"):
        # score the forecast the model would have made HORIZON hours ago
        windows = torch.stack([fetch_window(m, t_end - CONTEXT - HORIZON, CONTEXT) for m in request["meters"]])
        actuals = torch.stack([fetch_window(m, t_end - HORIZON, HORIZON) for m in request["meters"]])
    with torch.no_grad():
        return forecast(windows, actuals)


# requests arrive every hour; the monitoring job asks for a backtest now and then
requests = [
    {"meters": [0, 1, 3, 4]},
    {"meters": [6, 7, 9, 10]},
    {"meters": [1, 2, 4, 5], "backtest": True},
    {"meters": [0, 3, 6, 9]},
    {"meters": [2, 5, 8, 11], "backtest": True},
    {"meters": [3, 4, 6, 7]},
]
for hour, request in enumerate(requests):
    pred, loss = serve(request, t_end=100 + hour)
    extra = "" if loss is None else f" backtest mse {loss.item():.4f}"
    print(f"hour {hour} meters {request['meters']} mean forecast {pred.mean().item():+.4f}{extra}")
