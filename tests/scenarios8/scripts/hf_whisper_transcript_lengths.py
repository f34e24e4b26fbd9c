"""Fine-tuning a tiny Whisper on short voice commands.

Audio clips are already turned into log-mel features of fixed length; the
transcripts are tokenised and padded per batch, so their length depends on
the longest command in the batch.
"""

import torch
from transformers import WhisperConfig, WhisperForConditionalGeneration

torch.manual_seed(0)

config = WhisperConfig(
    vocab_size=300,
    num_mel_bins=16,
    d_model=64,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=4,
    decoder_attention_heads=4,
    encoder_ffn_dim=128,
    decoder_ffn_dim=128,
    max_source_positions=32,
    max_target_positions=64,
    pad_token_id=0,
    bos_token_id=1,
    eos_token_id=2,
    decoder_start_token_id=1,
)
model = WhisperForConditionalGeneration(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

# one batch per transcript length bucket, longest command in the batch
transcript_lengths = [8, 8, 13, 6, 17, 11]
for step, n_tokens in enumerate(transcript_lengths):
    features = torch.randn(4, config.num_mel_bins, 2 * config.max_source_positions)
    labels = torch.randint(3, config.vocab_size, (4, n_tokens))
    labels[:, -1] = config.eos_token_id
    out = compiled(input_features=features, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} tokens {n_tokens:2d} loss {out.loss.item():.4f}")
