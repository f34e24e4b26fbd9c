"""Continued MLM pre-training of a tiny ModernBERT on in-domain text.

The head is configured with sparse_prediction so that the decoder only runs
on the masked positions. Each batch masks 15% of the tokens at random.
"""

import torch
from transformers import ModernBertConfig, ModernBertForMaskedLM

torch.manual_seed(0)

config = ModernBertConfig(
    vocab_size=512,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=128,
    global_attn_every_n_layers=2,
    local_attention=32,
    sparse_prediction=True,
    pad_token_id=0,
    mask_token_id=4,
    attn_implementation="sdpa",
)
model = ModernBertForMaskedLM(config).train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

MASK_ID, SEQ, BATCH = 4, 32, 8


def mask_tokens(ids):
    labels = ids.clone()
    chosen = torch.rand(ids.shape) < 0.15
    labels[~chosen] = -100
    ids = ids.clone()
    ids[chosen] = MASK_ID
    return ids, labels


for step in range(6):
    ids = torch.randint(5, config.vocab_size, (BATCH, SEQ))
    inputs, labels = mask_tokens(ids)
    out = compiled(input_ids=inputs, attention_mask=torch.ones_like(ids), labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} masked {int((labels != -100).sum())} loss {out.loss.item():.3f}")
