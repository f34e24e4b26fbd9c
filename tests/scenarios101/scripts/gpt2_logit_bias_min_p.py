"""Tiny GPT-2 completion endpoint: each request brings its own sampling
options (`logit_bias` dict of token id -> bias, `min_p`), applied to the
last-position logits inside a compiled next-token function."""
import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
cfg = GPT2Config(vocab_size=200, n_positions=64, n_embd=32, n_layer=1, n_head=2)
model = GPT2LMHeadModel(cfg).eval()


@torch.compile(backend="aot_eager")
def next_token(input_ids, logit_bias, min_p):
    logits = model(input_ids=input_ids).logits[:, -1, :]
    for tok, bias in logit_bias.items():
        logits[:, tok] += bias
    probs = torch.softmax(logits, dim=-1)
    top = probs.max(dim=-1, keepdim=True).values
    probs = torch.where(probs >= min_p * top, probs, torch.zeros_like(probs))
    return torch.multinomial(probs / probs.sum(-1, keepdim=True), 1)


def complete(prompt_ids, max_new, logit_bias, min_p):
    ids = prompt_ids
    with torch.no_grad():
        for _ in range(max_new):
            ids = torch.cat([ids, next_token(ids[:, -8:], logit_bias, min_p)], dim=1)
    return ids[:, prompt_ids.shape[1]:]


requests = [
    ({}, 0.1),
    ({}, 0.1),
    ({17: -100.0}, 0.1),
    ({17: -100.0, 42: 5.0}, 0.1),
    ({}, 0.05),
]
for i, (bias, min_p) in enumerate(requests):
    prompt = torch.randint(0, cfg.vocab_size, (2, 8))
    out = complete(prompt, 3, bias, min_p)
    print(f"request {i}: bias={bias} min_p={min_p} -> {out.tolist()}")
