import torch
from transformers import DynamicCache, HeliumConfig, HeliumForCausalLM

torch.manual_seed(0)

VOCAB = 128
cfg = HeliumConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                   num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=64,
                   pad_token_id=0, bos_token_id=1, eos_token_id=2)
model = HeliumForCausalLM(cfg).eval()


@torch.compile(backend="aot_eager")
def beam_step(logits, beam_scores, num_beams, length_penalty, cur_len):
    log_probs = logits.log_softmax(-1) + beam_scores[:, None]
    flat = log_probs.reshape(1, num_beams * VOCAB)
    top, idx = flat.topk(num_beams, dim=-1)
    beam_idx = torch.div(idx, VOCAB, rounding_mode="floor")[0]
    tokens = (idx % VOCAB)[0]
    normalized = top[0] / (cur_len ** length_penalty)
    return top[0], beam_idx, tokens, normalized


@torch.no_grad()
def beam_search(prompt, num_beams, length_penalty, max_new_tokens=4):
    cache = DynamicCache(config=cfg)
    out = model(input_ids=prompt, past_key_values=cache, use_cache=True)
    cache = out.past_key_values
    cache.batch_repeat_interleave(num_beams)
    logits = out.logits[:, -1].repeat(num_beams, 1)
    beam_scores = torch.zeros(num_beams)
    beam_scores[1:] = -1e9
    seqs = prompt.repeat(num_beams, 1)
    for _ in range(max_new_tokens):
        beam_scores, beam_idx, tokens, normalized = beam_step(
            logits, beam_scores, num_beams, length_penalty, seqs.shape[1] + 1)
        cache.reorder_cache(beam_idx)
        seqs = torch.cat([seqs[beam_idx], tokens[:, None]], dim=1)
        out = model(input_ids=tokens[:, None], past_key_values=cache, use_cache=True)
        logits = out.logits[:, -1]
    best = int(normalized.argmax())
    return seqs[best, prompt.shape[1]:].tolist(), float(normalized[best])


requests = [
    {"num_beams": 2, "length_penalty": 1.0},
    {"num_beams": 2, "length_penalty": 1.0},
    {"num_beams": 4, "length_penalty": 1.0},
    {"num_beams": 4, "length_penalty": 0.6},
]
for i, req in enumerate(requests):
    prompt = torch.randint(3, VOCAB, (1, 8))
    tokens, score = beam_search(prompt, **req)
    print(f"request {i} {req}: {tokens} (score {score:.3f})")
