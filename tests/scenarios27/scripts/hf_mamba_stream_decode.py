"""Streaming generation with a tiny Mamba model, written by hand.

The prompt is run once to fill the recurrent state, then tokens are
sampled one at a time, feeding the cache object back in, as a chat server
would do for a single user.
"""

import torch
from transformers import MambaConfig, MambaForCausalLM

torch.manual_seed(0)

config = MambaConfig(
    vocab_size=256,
    hidden_size=64,
    state_size=8,
    num_hidden_layers=2,
    expand=2,
    conv_kernel=4,
    use_cache=True,
)
model = MambaForCausalLM(config).eval()
step_fn = torch.compile(model, backend="aot_eager")

prompt = torch.randint(0, config.vocab_size, (1, 12))
generated = []

with torch.no_grad():
    out = step_fn(input_ids=prompt, use_cache=True)
    cache = out.cache_params
    pos = prompt.shape[1]
    for _ in range(8):
        probs = torch.softmax(out.logits[:, -1] / 0.8, dim=-1)
        nxt = torch.multinomial(probs, 1)
        generated.append(nxt.item())
        out = step_fn(
            input_ids=nxt,
            cache_params=cache,
            use_cache=True,
            cache_position=torch.tensor([pos]),
        )
        cache = out.cache_params
        pos += 1

print("generated", generated)
