"""Transfer learning for a new wind farm: an HF Informer forecaster (ProbSparse
attention, distilling encoder) is pre-trained on a source farm's series, then
fine-tuned on the target farm with its encoder frozen for the first epoch and
unfrozen afterwards (gradual unfreezing)."""
import numpy as np
import torch
from transformers import InformerConfig, InformerForPrediction

torch.manual_seed(0)
np.random.seed(0)

CONTEXT, HORIZON, LAGS = 16, 4, [1, 2]
PAST = CONTEXT + max(LAGS)


def farm_series(n, gust):
    t = np.arange(n, dtype=np.float32)
    power = 5 + 2 * np.sin(2 * np.pi * t / 24) + gust * np.random.randn(n).astype(np.float32)
    return np.clip(power, 0.1, None).astype(np.float32), ((t % 24) / 23.0 - 0.5).astype(np.float32)


def windows(series, feats, n_win):
    starts = np.random.randint(0, len(series) - PAST - HORIZON, size=n_win)
    pv = np.stack([series[s:s + PAST] for s in starts])
    pt = np.stack([feats[s:s + PAST, None] for s in starts])
    fv = np.stack([series[s + PAST:s + PAST + HORIZON] for s in starts])
    ft = np.stack([feats[s + PAST:s + PAST + HORIZON, None] for s in starts])
    return dict(past_values=torch.from_numpy(pv), past_time_features=torch.from_numpy(pt),
                past_observed_mask=torch.ones(n_win, PAST), future_values=torch.from_numpy(fv),
                future_time_features=torch.from_numpy(ft))


config = InformerConfig(
    prediction_length=HORIZON, context_length=CONTEXT, lags_sequence=LAGS, input_size=1,
    num_time_features=1, d_model=16, encoder_layers=2, decoder_layers=1,
    encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=16,
    decoder_ffn_dim=16, attention_type="prob", sampling_factor=3, distil=True,
    dropout=0.0, encoder_layerdrop=0.0, decoder_layerdrop=0.0, distribution_output="normal",
)
model = InformerForPrediction(config)
fwd = torch.compile(model, backend="aot_eager")


def run_epoch(batches, opt):
    for batch in batches:
        loss = fwd(**batch).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


src_series, src_feats = farm_series(600, 0.3)
tgt_series, tgt_feats = farm_series(200, 0.8)

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
src = [windows(src_series, src_feats, 32) for _ in range(3)]
print("pretrain", run_epoch(src, opt))

encoder = model.model.encoder
for epoch in range(3):
    encoder.requires_grad_(epoch >= 1)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=5e-4)
    tgt = [windows(tgt_series, tgt_feats, 32) for _ in range(2)]
    print(f"finetune epoch {epoch} frozen={epoch < 1}", run_epoch(tgt, opt))
