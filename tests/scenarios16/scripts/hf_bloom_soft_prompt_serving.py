"""Prompt tuning on a small BLOOM: learn 8 virtual tokens, keep the model frozen.

Training feeds the learned prompt vectors plus the token embeddings through
inputs_embeds. Afterwards we send the same requests with and without the learned
prompt through the same compiled model to compare the answers.
"""

import torch
from transformers import BloomConfig, BloomForCausalLM

torch.manual_seed(0)

cfg = BloomConfig(vocab_size=300, hidden_size=64, n_layer=2, n_head=4)
model = BloomForCausalLM(cfg)
for p in model.parameters():
    p.requires_grad_(False)
compiled = torch.compile(model, backend="aot_eager")

N_VIRTUAL = 8
prompt = torch.nn.Parameter(torch.randn(N_VIRTUAL, cfg.hidden_size) * 0.02)
opt = torch.optim.Adam([prompt], lr=1e-2)
embed = model.get_input_embeddings()


def task_batch(n=4, length=16):
    return torch.randint(3, cfg.vocab_size, (n, length))


for step in range(5):
    ids = task_batch()
    tok = embed(ids)
    embeds = torch.cat([prompt.expand(ids.shape[0], -1, -1), tok], dim=1)
    mask = torch.ones(embeds.shape[:2], dtype=torch.long)
    labels = torch.cat([torch.full((ids.shape[0], N_VIRTUAL), -100), ids], dim=1)
    out = compiled(inputs_embeds=embeds, attention_mask=mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} loss {out.loss.item():.4f}")

# compare tuned vs. plain requests on the same batches
model.eval()
with torch.no_grad():
    for req in range(3):
        ids = task_batch()
        mask = torch.ones(ids.shape[0], N_VIRTUAL + ids.shape[1], dtype=torch.long)
        embeds = torch.cat([prompt.expand(ids.shape[0], -1, -1), embed(ids)], dim=1)
        tuned = compiled(inputs_embeds=embeds, attention_mask=mask).logits[:, -1].argmax(-1)
        plain = compiled(input_ids=ids, attention_mask=torch.ones_like(ids)).logits[:, -1].argmax(-1)
        print(f"request {req} tuned {tuned.tolist()} plain {plain.tolist()}")
