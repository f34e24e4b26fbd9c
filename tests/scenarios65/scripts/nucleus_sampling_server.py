"""Text completion server: tiny GPT-2, per-request sampling settings."""
import torch
import torch.nn.functional as F
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(vocab_size=200, n_positions=64, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(config).eval()


@torch.compile(backend="aot_eager")
def next_token_probs(logits, temperature, top_p):
    logits = logits / temperature
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum - sorted_logits.softmax(-1) > top_p
    sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
    filtered = torch.full_like(logits, float("-inf")).scatter(-1, sorted_idx, sorted_logits)
    return F.softmax(filtered, dim=-1)


def complete(prompt, max_new_tokens, temperature=1.0, top_p=0.9, seed=0):
    gen = torch.Generator().manual_seed(seed)
    ids = prompt.clone()
    past = None
    inp = ids
    for _ in range(max_new_tokens):
        out = model(input_ids=inp, past_key_values=past, use_cache=True)
        past = out.past_key_values
        probs = next_token_probs(out.logits[:, -1, :], temperature, top_p)
        nxt = torch.multinomial(probs, 1, generator=gen)
        ids = torch.cat([ids, nxt], dim=1)
        inp = nxt
    return ids


# Incoming requests: (prompt length, new tokens, sampling settings)
requests = [
    (5, 6, {"temperature": 0.8, "top_p": 0.9}),
    (7, 6, {"temperature": 0.8, "top_p": 0.9}),
    (4, 6, {"temperature": 0.7, "top_p": 0.95}),
    (6, 6, {"temperature": 1.0, "top_p": 0.8}),
    (5, 6, {"temperature": 0.8, "top_p": 0.9}),
    (8, 6, {"temperature": 0.6, "top_p": 0.92}),
]

with torch.no_grad():
    for i, (plen, n, settings) in enumerate(requests):
        prompt = torch.randint(0, config.vocab_size, (1, plen))
        out = complete(prompt, n, seed=i, **settings)
        print(f"request {i}: {settings} -> {out[0, plen:].tolist()}")
