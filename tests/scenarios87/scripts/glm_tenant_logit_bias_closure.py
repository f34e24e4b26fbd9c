import torch
from transformers import GlmConfig, GlmForCausalLM

torch.manual_seed(0)

CONTEXT = 12
cfg = GlmConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=64,
                pad_token_id=0, bos_token_id=1, eos_token_id=[2])
model = GlmForCausalLM(cfg).eval()


def make_logit_bias(banned_ids, boost):
    def apply(logits):
        logits = logits.clone()
        logits[:, banned_ids] = float("-inf")
        return logits + boost
    return apply


@torch.compile(backend="aot_eager")
def next_token(ids, bias_fn):
    logits = model(input_ids=ids, use_cache=False).logits[:, -1]
    return bias_fn(logits).argmax(-1, keepdim=True)


TENANTS = {
    "acme": {"banned": [5, 6, 7], "boost": 0.0},
    "globex": {"banned": [9, 10], "boost": 0.5},
    "initech": {"banned": [5, 6, 7], "boost": 0.0},
}


@torch.no_grad()
def complete(tenant, prompt, new_tokens=3):
    settings = TENANTS[tenant]
    bias_fn = make_logit_bias(settings["banned"], settings["boost"])
    ids = prompt
    for _ in range(new_tokens):
        ids = torch.cat([ids, next_token(ids[:, -CONTEXT:], bias_fn)], dim=1)
    return ids[:, prompt.shape[1]:].tolist()[0]


for i, tenant in enumerate(["acme", "globex", "initech", "acme", "globex"]):
    prompt = torch.randint(3, 128, (1, CONTEXT))
    print(f"request {i} [{tenant}]: {complete(tenant, prompt)}")
