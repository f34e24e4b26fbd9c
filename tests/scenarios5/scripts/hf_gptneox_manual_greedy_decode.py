"""Greedy decoding with a hand-written loop around a compiled GPT-NeoX.

Instead of `generate`, the user writes the decoding loop: the prompt goes
through the compiled model once, then each new token is fed back together
with the `past_key_values` the model returned on the previous call.
"""

import torch
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

torch.manual_seed(0)

config = GPTNeoXConfig(
    vocab_size=100, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
    num_attention_heads=2, max_position_embeddings=64, rotary_pct=0.5,
)
model = GPTNeoXForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")

prompt = torch.randint(0, 100, (1, 8))
with torch.no_grad():
    out = compiled(input_ids=prompt, use_cache=True)
    tokens = [out.logits[:, -1].argmax(-1)]
    past = out.past_key_values
    for _ in range(11):
        out = compiled(input_ids=tokens[-1][:, None], past_key_values=past, use_cache=True)
        past = out.past_key_values
        tokens.append(out.logits[:, -1].argmax(-1))
print("generated", torch.cat(tokens).tolist())
