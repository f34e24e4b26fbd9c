"""A small text service on a Gemma-style LM: rank candidates and suggest.

Two kinds of request hit the same compiled model.  "score" requests rank
candidate completions by log-likelihood and don't need a KV cache;
"suggest" requests run the prompt once with the cache on so the follow-up
tokens can be decoded from it later.  Tiny random weights for the demo.
"""

import torch
from transformers import GemmaConfig, GemmaForCausalLM

torch.manual_seed(0)

config = GemmaConfig(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=1,
    head_dim=16,
    max_position_embeddings=128,
)
model = GemmaForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")

SEQ = 24  # requests are padded/truncated to this many tokens
kept_caches = {}


def score(ids):
    with torch.no_grad():
        logits = compiled(input_ids=ids, use_cache=False).logits
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    return logp.gather(-1, ids[:, 1:, None]).squeeze(-1).sum(-1)


def suggest(req_id, ids):
    with torch.no_grad():
        out = compiled(input_ids=ids, use_cache=True)
    kept_caches[req_id] = out.past_key_values
    return out.logits[:, -1].topk(3).indices[0]


# every request is a batch of 4: 4 candidates to rank, or 4 users' prompts
requests = [
    ("score", 4),
    ("score", 4),
    ("suggest", 4),
    ("score", 4),
    ("suggest", 4),
    ("suggest", 4),
    ("score", 4),
]

for i, (kind, n) in enumerate(requests):
    ids = torch.randint(0, config.vocab_size, (n, SEQ))
    if kind == "score":
        best = score(ids).argmax().item()
        print(f"req {i} score: best candidate {best}")
    else:
        print(f"req {i} suggest: {suggest(i, ids).tolist()}")
