"""Greedy completion with a tiny Phi model, written by hand.

We only want a few tokens per prompt for a smoke test of our tokenizer
pipeline, so the loop re-runs the whole prefix each step (no KV cache) and
picks the argmax token.
"""

import torch
from transformers import PhiConfig, PhiForCausalLM

torch.manual_seed(0)

config = PhiConfig(
    vocab_size=512,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=128,
    partial_rotary_factor=0.5,
)
model = PhiForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")


@torch.no_grad()
def complete(prompt_ids, max_new_tokens=6):
    ids = prompt_ids
    for _ in range(max_new_tokens):
        out = compiled(input_ids=ids, use_cache=False)
        next_id = out.logits[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, next_id], dim=1)
    return ids


prompts = [
    torch.randint(0, config.vocab_size, (1, 10)),
    torch.randint(0, config.vocab_size, (1, 7)),
]
for p in prompts:
    result = complete(p)
    print("prompt", p.shape[1], "->", result[0, p.shape[1]:].tolist())
