"""Serve a tiny CodeGen completion model: prefill each prompt, then decode
greedily one token at a time through the same compiled forward with a KV cache."""
import torch
from transformers import CodeGenConfig, CodeGenForCausalLM

torch.manual_seed(0)

cfg = CodeGenConfig(vocab_size=96, n_embd=32, n_layer=2, n_head=4, rotary_dim=4,
                    n_positions=128, n_ctx=128, bos_token_id=0, eos_token_id=1)
model = CodeGenForCausalLM(cfg).eval()


@torch.compile(backend="aot_eager")
def forward_step(ids, past):
    out = model(input_ids=ids, past_key_values=past, use_cache=True)
    return out.logits[:, -1, :], out.past_key_values


def complete(prompt, max_new_tokens):
    ids = prompt.unsqueeze(0)
    past = None
    generated = []
    with torch.no_grad():
        for _ in range(max_new_tokens):
            logits, past = forward_step(ids, past)
            nxt = logits.argmax(-1, keepdim=True)
            generated.append(nxt.item())
            ids = nxt
    return generated


prompts = [torch.randint(2, 96, (n,)) for n in (7, 7, 11)]
for i, p in enumerate(prompts):
    toks = complete(p, max_new_tokens=4)
    print(f"request {i}: prompt {p.numel()} tokens -> {toks}")
