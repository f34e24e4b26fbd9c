"""Serving next-token scores from a small Falcon model.

Requests arrive in groups; the server pads every prompt to a fixed window of
16 tokens and scores the whole group in one call to the compiled model.
"""

import torch
from transformers import FalconConfig, FalconForCausalLM

torch.manual_seed(0)

config = FalconConfig(
    vocab_size=512,
    hidden_size=64,
    num_hidden_layers=1,
    num_attention_heads=4,
    alibi=False,
    new_decoder_architecture=False,
    multi_query=True,
    parallel_attn=True,
)
model = FalconForCausalLM(config).eval()
model = torch.compile(model, backend="aot_eager")

WINDOW = 16
PAD_ID = 0


def make_group(n_requests):
    """Left-pad each request's prompt to WINDOW tokens."""
    ids = torch.full((n_requests, WINDOW), PAD_ID, dtype=torch.long)
    mask = torch.zeros(n_requests, WINDOW, dtype=torch.long)
    for row in range(n_requests):
        length = int(torch.randint(4, WINDOW + 1, (1,)))
        ids[row, WINDOW - length:] = torch.randint(1, config.vocab_size, (length,))
        mask[row, WINDOW - length:] = 1
    return ids, mask


# how many requests were waiting each time the server woke up
queue_sizes = [4, 4, 4, 1, 4, 3, 4, 2]

with torch.no_grad():
    for tick, n in enumerate(queue_sizes):
        ids, mask = make_group(n)
        out = model(input_ids=ids, attention_mask=mask, use_cache=False)
        next_tokens = out.logits[:, -1].argmax(-1)
        print(f"tick {tick}: served {n} requests -> {next_tokens.tolist()}")
