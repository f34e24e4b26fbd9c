import torch
from transformers import DynamicCache, Phi3Config, Phi3ForCausalLM
from transformers.generation.stopping_criteria import EosTokenCriteria, MaxLengthCriteria, StoppingCriteriaList

torch.manual_seed(0)

EOS = 127
cfg = Phi3Config(
    vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
    bos_token_id=1, eos_token_id=EOS, pad_token_id=0,
)
model = Phi3ForCausalLM(cfg).eval()
compiled = torch.compile(model, backend="aot_eager")


@torch.no_grad()
def chat_reply(prompt_ids, max_new_tokens):
    cache = DynamicCache(config=cfg)
    stop = StoppingCriteriaList([
        MaxLengthCriteria(max_length=prompt_ids.shape[1] + max_new_tokens),
        EosTokenCriteria(eos_token_id=EOS),
    ])
    out = compiled(input_ids=prompt_ids, past_key_values=cache, use_cache=True)
    generated = prompt_ids
    while True:
        next_tok = out.logits[:, -1].argmax(-1, keepdim=True)
        generated = torch.cat([generated, next_tok], dim=1)
        if stop(generated, out.logits[:, -1]).all():
            break
        out = compiled(input_ids=next_tok, past_key_values=out.past_key_values, use_cache=True)
    return generated[:, prompt_ids.shape[1]:]


conversation = [
    torch.randint(3, 120, (1, 10)),
    torch.randint(3, 120, (1, 6)),
    torch.randint(3, 120, (1, 14)),
]
for turn, prompt in enumerate(conversation):
    reply = chat_reply(prompt, max_new_tokens=5)
    print(f"turn {turn}: prompt {prompt.shape[1]} tokens -> reply {reply.tolist()[0]}")
