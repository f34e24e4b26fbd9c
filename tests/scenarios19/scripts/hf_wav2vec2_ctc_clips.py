"""Fine-tune a small Wav2Vec2 CTC model on short spoken-digit clips.

Clips in a batch are padded to the longest one and carry an attention mask;
transcripts are letter ids and get shorter or longer from batch to batch.
The model is tiny and random here so the loop runs on a laptop CPU.
"""

import torch
from transformers import Wav2Vec2Config, Wav2Vec2ForCTC

torch.manual_seed(0)

VOCAB = 12  # pad/blank + a handful of letters
SR = 16000

config = Wav2Vec2Config(
    vocab_size=VOCAB,
    hidden_size=32,
    num_hidden_layers=1,
    num_attention_heads=2,
    intermediate_size=64,
    conv_dim=(16, 16, 16),
    conv_stride=(5, 2, 2),
    conv_kernel=(10, 3, 3),
    num_conv_pos_embeddings=16,
    num_conv_pos_embedding_groups=2,
    feat_extract_norm="layer",
    do_stable_layer_norm=True,
    mask_time_prob=0.0,
    pad_token_id=0,
    ctc_loss_reduction="mean",
)
model = Wav2Vec2ForCTC(config)
model.freeze_feature_encoder()
model.train()

compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-4)


def make_batch(durations, n_chars):
    """Pad raw waveforms to the longest clip; labels padded with -100."""
    longest = max(int(d * SR) for d in durations)
    audio = torch.zeros(len(durations), longest)
    mask = torch.zeros(len(durations), longest, dtype=torch.long)
    for i, d in enumerate(durations):
        n = int(d * SR)
        audio[i, :n] = torch.randn(n) * 0.1
        mask[i, :n] = 1
    labels = torch.full((len(durations), max(n_chars)), -100, dtype=torch.long)
    for i, c in enumerate(n_chars):
        labels[i, :c] = torch.randint(1, VOCAB, (c,))
    return audio, mask, labels


# (clip durations in seconds, transcript lengths) as the bucketed loader yields them
batches = [
    ([0.25, 0.25, 0.2, 0.25], [4, 5, 3, 4]),
    ([0.25, 0.2, 0.25, 0.22], [5, 4, 4, 3]),
    ([0.4, 0.35, 0.4, 0.3], [7, 6, 8, 5]),
    ([0.3, 0.3, 0.28, 0.3], [5, 6, 5, 6]),
    ([0.5, 0.45, 0.5, 0.42], [9, 8, 10, 7]),
]

for step, (durations, n_chars) in enumerate(batches):
    audio, mask, labels = make_batch(durations, n_chars)
    out = compiled(input_values=audio, attention_mask=mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} samples {audio.shape[1]} labels {labels.shape[1]} ctc {out.loss.item():.3f}")
