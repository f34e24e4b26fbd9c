"""Serving a tiny BLOOM model behind our request queue.

Every request carries its own generation settings (length budget, greedy
or sampled with temperature / top-k, repetition penalty), which we pass
straight through to generate(). The model forward is compiled once at
start-up so all requests share it.
"""

import time

import torch
from transformers import BloomConfig, BloomForCausalLM

torch.manual_seed(0)

# stand-in for the real checkpoint: same family, tiny random weights
config = BloomConfig(vocab_size=128, hidden_size=32, n_layer=1, n_head=4,
                     pad_token_id=0, eos_token_id=1, bos_token_id=2)
model = BloomForCausalLM(config).eval()
model.forward = torch.compile(model.forward, backend="aot_eager")

# what the front-end put in the queue this morning
requests = [
    {"id": "r1", "max_new_tokens": 3, "do_sample": False},
    {"id": "r2", "max_new_tokens": 3, "do_sample": True, "temperature": 0.7, "top_k": 20},
    {"id": "r3", "max_new_tokens": 5, "do_sample": False, "repetition_penalty": 1.3},
]


def handle(request, prompt):
    settings = {k: v for k, v in request.items() if k != "id"}
    start = time.perf_counter()
    with torch.no_grad():
        out = model.generate(prompt, attention_mask=torch.ones_like(prompt),
                             pad_token_id=config.pad_token_id, **settings)
    elapsed = time.perf_counter() - start
    return out[0, prompt.shape[1]:].tolist(), elapsed


# all prompts are the same system prompt for now
prompt = torch.randint(3, 128, (1, 6))
for req in requests:
    tokens, secs = handle(req, prompt)
    print(f"{req['id']}: {tokens} ({secs:.2f}s)")
