"""Train a linear probe on top of a frozen WavLM encoder.

Every few steps the probe is evaluated against every encoder layer to see
which layer carries the most phone information.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import WavLMConfig, WavLMModel

torch.manual_seed(0)

config = WavLMConfig(
    hidden_size=32, num_hidden_layers=3, num_attention_heads=2, intermediate_size=64,
    conv_dim=(32, 32), conv_stride=(5, 4), conv_kernel=(10, 4),
    num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
    num_buckets=32, max_bucket_distance=64, apply_spec_augment=False,
)
encoder = WavLMModel(config).eval()
for p in encoder.parameters():
    p.requires_grad_(False)
encoder = torch.compile(encoder, backend="aot_eager")

NUM_PHONES = 12
probe = nn.Linear(config.hidden_size, NUM_PHONES)
opt = torch.optim.Adam(probe.parameters(), lr=1e-2)


def batch():
    wav = torch.randn(4, 1600) * 0.1
    frames = 1600 // 20 - 1
    return wav, torch.randint(0, NUM_PHONES, (4, frames))


for step in range(9):
    wav, phones = batch()
    with torch.no_grad():
        feats = encoder(wav).last_hidden_state
    loss = F.cross_entropy(probe(feats).transpose(1, 2), phones[:, : feats.shape[1]])
    opt.zero_grad()
    loss.backward()
    opt.step()

    if step % 3 == 2:
        with torch.no_grad():
            out = encoder(wav, output_hidden_states=True)
            accs = []
            for h in out.hidden_states:
                pred = probe(h).argmax(-1)
                accs.append((pred == phones[:, : h.shape[1]]).float().mean().item())
        print(f"step {step} loss {loss.item():.3f} layer acc {[round(a, 3) for a in accs]}")
