"""Fine-tuning a tiny OPT language model, then scoring candidate replies.

Training calls pass labels so the model returns its own loss; the scoring
pass afterwards only wants the logits and computes per-token log-probs
itself.
"""

import torch
from transformers import OPTConfig, OPTForCausalLM

torch.manual_seed(0)

config = OPTConfig(
    vocab_size=256,
    hidden_size=64,
    num_hidden_layers=1,
    num_attention_heads=4,
    ffn_dim=128,
    max_position_embeddings=64,
    word_embed_proj_dim=64,
    pad_token_id=1,
)
model = OPTForCausalLM(config)
model = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)

batch = torch.randint(2, 256, (4, 24))
mask = torch.ones_like(batch)

# a few steps of fine-tuning
model.train()
for step in range(4):
    out = model(input_ids=batch, attention_mask=mask, labels=batch)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {out.loss.item():.3f}")

# validation loss on a held-out batch
model.eval()
held_out = torch.randint(2, 256, (4, 24))
with torch.no_grad():
    val = model(input_ids=held_out, attention_mask=mask, labels=held_out)
    print(f"val loss {val.loss.item():.3f}")

# score some candidate replies with the fine-tuned model
candidates = torch.randint(2, 256, (4, 24))
with torch.no_grad():
    for i in range(3):
        out = model(input_ids=candidates, attention_mask=mask)
        logp = out.logits[:, :-1].log_softmax(-1)
        tok = logp.gather(-1, candidates[:, 1:, None]).squeeze(-1)
        print(f"round {i} mean logp {tok.mean().item():.3f}")
