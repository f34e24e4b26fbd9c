"""Probabilistic forecaster: HF TimeSeriesTransformer trained on sliding windows
of a synthetic electricity-load series, then validated each epoch."""
import numpy as np
import torch
from transformers import TimeSeriesTransformerConfig, TimeSeriesTransformerForPrediction

torch.manual_seed(0)
np.random.seed(0)

CONTEXT, HORIZON, LAGS = 12, 6, [1, 2, 3]
PAST = CONTEXT + max(LAGS)

# synthetic hourly load with daily seasonality and noise
t = np.arange(420, dtype=np.float32)
load = 10 + 3 * np.sin(2 * np.pi * t / 24) + np.random.randn(len(t)).astype(np.float32) * 0.5
hour = (t % 24) / 23.0 - 0.5


def make_windows(start, stop, stride):
    pv, pt, pm, fv, ft = [], [], [], [], []
    for s in range(start, stop - PAST - HORIZON, stride):
        e = s + PAST
        pv.append(load[s:e]); pt.append(hour[s:e, None]); pm.append(np.ones(PAST, np.float32))
        fv.append(load[e:e + HORIZON]); ft.append(hour[e:e + HORIZON, None])
    as_t = lambda xs: torch.tensor(np.stack(xs), dtype=torch.float32)
    return [as_t(x) for x in (pv, pt, pm, fv, ft)]


train = make_windows(0, 330, 4)     # 75 windows
valid = make_windows(330, 420, 6)   # 12 windows

config = TimeSeriesTransformerConfig(
    prediction_length=HORIZON, context_length=CONTEXT, lags_sequence=LAGS,
    num_time_features=1, input_size=1, d_model=16, encoder_layers=1, decoder_layers=1,
    encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=16,
    decoder_ffn_dim=16, dropout=0.1, encoder_layerdrop=0.0, decoder_layerdrop=0.0, scaling="mean",
    distribution_output="student_t",
)
model = TimeSeriesTransformerForPrediction(config)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

BATCH = 32


def batches(data, bs):
    n = data[0].shape[0]
    for i in range(0, n, bs):
        yield [d[i:i + bs] for d in data]


for epoch in range(2):
    model.train()
    perm = torch.randperm(train[0].shape[0])
    shuffled = [d[perm] for d in train]
    for pv, pt, pm, fv, ft in batches(shuffled, BATCH):
        out = compiled(past_values=pv, past_time_features=pt, past_observed_mask=pm,
                       future_values=fv, future_time_features=ft)
        opt.zero_grad()
        out.loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pv, pt, pm, fv, ft = valid
        out = compiled(past_values=pv, past_time_features=pt, past_observed_mask=pm,
                       future_values=fv, future_time_features=ft)
    print(f"epoch {epoch} train_nll {out.loss.item():.3f}")
