import torch
from transformers import CohereConfig, CohereForCausalLM
from transformers.generation.logits_process import MinPLogitsWarper, TemperatureLogitsWarper, TopPLogitsWarper

torch.manual_seed(0)

CONTEXT = 8
cfg = CohereConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                   num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                   pad_token_id=0, bos_token_id=1, eos_token_id=2)
model = CohereForCausalLM(cfg).eval()


@torch.compile(backend="aot_eager")
def next_token_probs(ids, temperature, top_p, min_p):
    logits = model(input_ids=ids, use_cache=False).logits[:, -1, :]
    scores = temperature(ids, logits)
    scores = top_p(ids, scores)
    scores = min_p(ids, scores)
    return scores.softmax(-1)


@torch.no_grad()
def serve(request, gen):
    ids = request["prompt"]
    temperature = TemperatureLogitsWarper(request["temperature"])
    top_p = TopPLogitsWarper(request["top_p"])
    min_p = MinPLogitsWarper(request["min_p"])
    for _ in range(request["max_new_tokens"]):
        probs = next_token_probs(ids[:, -CONTEXT:], temperature, top_p, min_p)
        tok = torch.multinomial(probs, 1, generator=gen)
        ids = torch.cat([ids, tok], dim=1)
    return ids[:, request["prompt"].shape[1]:]


requests = [
    {"prompt": torch.randint(3, 128, (1, 12)), "temperature": 0.7, "top_p": 0.9, "min_p": 0.05, "max_new_tokens": 4},
    {"prompt": torch.randint(3, 128, (1, 9)), "temperature": 0.7, "top_p": 0.9, "min_p": 0.05, "max_new_tokens": 4},
    {"prompt": torch.randint(3, 128, (1, 10)), "temperature": 1.0, "top_p": 0.95, "min_p": 0.0, "max_new_tokens": 4},
    {"prompt": torch.randint(3, 128, (1, 16)), "temperature": 0.3, "top_p": 0.8, "min_p": 0.1, "max_new_tokens": 4},
    {"prompt": torch.randint(3, 128, (1, 11)), "temperature": 0.7, "top_p": 0.9, "min_p": 0.05, "max_new_tokens": 4},
]
gen = torch.Generator().manual_seed(1234)
for i, req in enumerate(requests):
    out = serve(req, gen)
    print(f"request {i} (T={req['temperature']}, top_p={req['top_p']}, min_p={req['min_p']}): {out.tolist()[0]}")
