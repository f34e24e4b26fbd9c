"""A tiny StableLM that first re-ranks candidate replies by log-likelihood and
then answers a chat turn token by token.

The same compiled model object is shared by the ranking job and the chat
endpoint, like in our small serving process.
"""

import torch
from transformers import DynamicCache, StableLmConfig, StableLmForCausalLM

torch.manual_seed(0)

config = StableLmConfig(
    vocab_size=320,
    hidden_size=64,
    intermediate_size=160,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=256,
    partial_rotary_factor=0.25,
)
lm = StableLmForCausalLM(config).eval()
served = torch.compile(lm, backend="aot_eager")


@torch.no_grad()
def rank_replies(candidates):
    # mean token NLL of each candidate reply, lower is better
    ids = torch.stack(candidates)
    out = served(input_ids=ids, labels=ids, use_cache=False)
    return out.loss.item()


@torch.no_grad()
def chat(prompt, max_new_tokens=6):
    cache = DynamicCache(config=config)
    ids = prompt[None, :]
    pos = torch.arange(ids.shape[1])
    reply = []
    for _ in range(max_new_tokens):
        out = served(input_ids=ids, past_key_values=cache, cache_position=pos, use_cache=True)
        cache = out.past_key_values
        nxt = out.logits[:, -1].argmax(-1, keepdim=True)
        reply.append(nxt.item())
        pos = pos[-1:] + 1
        ids = nxt
    return reply


# nightly re-ranking of canned replies (all 20 tokens long)
for group in range(3):
    cands = [torch.randint(3, config.vocab_size, (20,)) for _ in range(4)]
    print(f"group {group} nll {rank_replies(cands):.4f}")

# then the chat endpoint comes up
for turn in range(2):
    prompt = torch.randint(3, config.vocab_size, (12,))
    print(f"turn {turn} reply {chat(prompt)}")
