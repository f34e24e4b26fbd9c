"""Serving a tiny BLOOM model: a queue of requests with their own
generation settings (length budget, greedy or sampled)."""

import torch
from transformers import BloomConfig, BloomForCausalLM

torch.manual_seed(0)

config = BloomConfig(vocab_size=128, hidden_size=32, n_layer=1, n_head=4,
                     pad_token_id=0, eos_token_id=1, bos_token_id=2)
model = BloomForCausalLM(config).eval()
model.forward = torch.compile(model.forward, backend="aot_eager")

requests = [
    {"max_new_tokens": 3, "do_sample": False},
    {"max_new_tokens": 3, "do_sample": True, "temperature": 0.7, "top_k": 20},
    {"max_new_tokens": 5, "do_sample": False, "repetition_penalty": 1.3},
]

prompt = torch.randint(3, 128, (1, 6))
with torch.no_grad():
    for i, gen_kwargs in enumerate(requests):
        out = model.generate(prompt, attention_mask=torch.ones_like(prompt),
                             pad_token_id=0, **gen_kwargs)
        print(f"request {i}: {out[0, prompt.shape[1]:].tolist()}")
