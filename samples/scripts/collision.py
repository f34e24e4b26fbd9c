"""The incident (shared/reference/incident-hooks-recompiles.txt) at small scale.

A 2-layer decoder (d_model 64, 4 heads, seq len 32, batch 4) whose
positional-encoding buffer `pos_enc_cache` starts as torch.empty((0, 64)) and
is grown with torch.cat in forward, plus forward hooks (installed before
torch.compile by register_forward_metric_hooks) whose closures read
`collector.capture_activation_norms` / `collector.capture_attention_entropy`.
16 training steps (numbered 1..16) on torch.compile(model, backend="aot_eager");
both flags are on at step 12 only.

Expected: frame 0 recompiles at step 2 (pos_enc_cache size mismatch, expected
0, actual 32) and at step 12 (closure-cell guard on
collector.capture_activation_norms == False).
"""

import torch

from _collision_model import MetricsCollector, N_HEADS, TinyDecoder, register_forward_metric_hooks, train

torch.manual_seed(0)
model = TinyDecoder(prematerialize_pos_enc=False)
collector = MetricsCollector(N_HEADS)
register_forward_metric_hooks(model, collector)
train(model, collector, "collision")
