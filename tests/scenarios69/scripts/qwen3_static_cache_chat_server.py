"""Tiny chat server: greedy decoding with a preallocated StaticCache per request."""
import torch
from transformers import Qwen3Config, Qwen3ForCausalLM, StaticCache

torch.manual_seed(0)

config = Qwen3Config(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    max_position_embeddings=256,
    attn_implementation="eager",
)
model = Qwen3ForCausalLM(config).eval()

# cache sizes offered by the server
CACHE_BUCKETS = (64, 128)


def pick_bucket(prompt_len, max_new_tokens):
    need = prompt_len + max_new_tokens
    for size in CACHE_BUCKETS:
        if need <= size:
            return size
    raise ValueError("request too long")


def forward_step(input_ids, cache, cache_position):
    out = model(
        input_ids=input_ids,
        past_key_values=cache,
        cache_position=cache_position,
        use_cache=True,
    )
    return out.logits[:, -1, :]


step = torch.compile(forward_step, backend="aot_eager")


@torch.no_grad()
def serve(prompt_ids, max_new_tokens):
    prompt_len = prompt_ids.shape[1]
    cache = StaticCache(config=config, max_cache_len=pick_bucket(prompt_len, max_new_tokens))
    generated = []
    logits = step(prompt_ids, cache, torch.arange(prompt_len))
    nxt = logits.argmax(-1, keepdim=True)
    for i in range(max_new_tokens):
        generated.append(nxt)
        pos = prompt_len + i
        logits = step(nxt, cache, torch.tensor([pos]))
        nxt = logits.argmax(-1, keepdim=True)
    return torch.cat(generated, dim=1)


requests = [(6, 5), (9, 5), (50, 20), (7, 5)]
for prompt_len, max_new in requests:
    prompt = torch.randint(0, config.vocab_size, (1, prompt_len))
    reply = serve(prompt, max_new)
    print(f"prompt {prompt_len:3d} -> reply {reply.shape[1]} tokens, first ids {reply[0, :4].tolist()}")
