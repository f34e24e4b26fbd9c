"""Fine-tune a tiny Marian translation model on sentence pairs.

Source and target sentences are padded per batch, so both lengths move from
batch to batch; the model builds the decoder inputs from `labels` itself.
"""

import torch
from transformers import MarianConfig, MarianMTModel

torch.manual_seed(0)

config = MarianConfig(
    vocab_size=400,
    d_model=64,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=4,
    decoder_attention_heads=4,
    encoder_ffn_dim=128,
    decoder_ffn_dim=128,
    max_position_embeddings=128,
    pad_token_id=0,
    eos_token_id=1,
    decoder_start_token_id=0,
)
model = MarianMTModel(config)
step_model = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)


def pad(seqs, value):
    longest = max(len(s) for s in seqs)
    out = torch.full((len(seqs), longest), value, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = s
    return out


def make_pairs(src_lens, tgt_lens):
    src = [torch.randint(2, config.vocab_size, (n,)) for n in src_lens]
    tgt = [torch.cat([torch.randint(2, config.vocab_size, (n - 1,)), torch.tensor([1])]) for n in tgt_lens]
    input_ids = pad(src, 0)
    labels = pad(tgt, -100)
    return input_ids, (input_ids != 0).long(), labels


# each batch is a bucket from the sampler: (source lengths, target lengths)
buckets = [
    ([14, 12, 14, 10], [15, 13, 11, 12]),
    ([14, 13, 11, 14], [16, 14, 15, 10]),
    ([22, 19, 21, 18], [15, 16, 12, 13]),
    ([9, 8, 9, 7], [25, 21, 24, 20]),
    ([17, 15, 16, 12], [18, 19, 17, 14]),
]
model.train()
for step, (src_lens, tgt_lens) in enumerate(buckets):
    input_ids, attention_mask, labels = make_pairs(src_lens, tgt_lens)
    out = step_model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} src {input_ids.shape[1]} tgt {labels.shape[1]} loss {out.loss.item():.4f}")
