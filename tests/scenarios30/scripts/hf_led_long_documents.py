"""Fine-tuning a tiny LED (Longformer encoder-decoder) to summarise reports.

Reports are tokenised to their own length and padded only to the longest in
the batch. The first token of every report gets global attention, as the
LED docs suggest for summarisation. The model is built from a small random
config (no download).
"""

import torch
from transformers import LEDConfig, LEDForConditionalGeneration

torch.manual_seed(0)

config = LEDConfig(
    vocab_size=120,
    d_model=32,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=64,
    decoder_ffn_dim=64,
    max_encoder_position_embeddings=256,
    max_decoder_position_embeddings=64,
    attention_window=[16],
    pad_token_id=1,
    bos_token_id=0,
    eos_token_id=2,
    decoder_start_token_id=2,
)
model = LEDForConditionalGeneration(config)
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
compiled = torch.compile(model, backend="aot_eager")


def make_batch(doc_lens, summary_len=8):
    longest = max(doc_lens)
    ids = torch.full((len(doc_lens), longest), config.pad_token_id)
    attn = torch.zeros(len(doc_lens), longest, dtype=torch.long)
    for i, n in enumerate(doc_lens):
        ids[i, :n] = torch.randint(3, config.vocab_size, (n,))
        attn[i, :n] = 1
    global_attn = torch.zeros_like(attn)
    global_attn[:, 0] = 1
    labels = torch.randint(3, config.vocab_size, (len(doc_lens), summary_len))
    return ids, attn, global_attn, labels


# reports of different lengths arrive in batches of two
batches = [[40, 32], [44, 30], [70, 64]]

for step, lens in enumerate(batches):
    ids, attn, global_attn, labels = make_batch(lens)
    out = compiled(
        input_ids=ids,
        attention_mask=attn,
        global_attention_mask=global_attn,
        labels=labels,
    )
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} doc length {ids.shape[1]} loss {out.loss.item():.4f}")
