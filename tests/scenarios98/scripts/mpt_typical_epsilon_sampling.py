"""Sample continuations from a tiny MPT model; each request carries its own
decoding settings (typical-p mass, epsilon cutoff, temperature), turned into
transformers logits warpers and applied in a compiled sampling function."""
import torch
from transformers import (MptConfig, MptForCausalLM, TemperatureLogitsWarper,
                          TypicalLogitsWarper, EpsilonLogitsWarper)

torch.manual_seed(0)

cfg = MptConfig(vocab_size=100, d_model=32, n_heads=4, n_layers=2,
                max_seq_len=64, expansion_ratio=2)
model = MptForCausalLM(cfg).eval()


@torch.compile(backend="aot_eager")
def sample_next(ids, scores, warpers):
    for w in warpers:
        scores = w(ids, scores)
    probs = torch.softmax(scores, dim=-1)
    return torch.multinomial(probs, 1)


def build_warpers(req):
    ws = [TemperatureLogitsWarper(req["temperature"])]
    if req.get("typical_p") is not None:
        ws.append(TypicalLogitsWarper(mass=req["typical_p"]))
    if req.get("epsilon") is not None:
        ws.append(EpsilonLogitsWarper(epsilon=req["epsilon"]))
    return ws


requests = [
    {"temperature": 0.8, "typical_p": 0.9},
    {"temperature": 0.8, "typical_p": 0.9},
    {"temperature": 1.0, "typical_p": 0.95},
    {"temperature": 0.7, "epsilon": 3e-4},
    {"temperature": 0.7, "typical_p": 0.9, "epsilon": 3e-4},
]

for i, req in enumerate(requests):
    ids = torch.randint(0, 100, (2, 6))
    warpers = build_warpers(req)
    with torch.no_grad():
        for _ in range(3):
            logits = model(input_ids=ids).logits[:, -1, :]
            nxt = sample_next(ids, logits, warpers)
            ids = torch.cat([ids, nxt], dim=1)
    print(f"request {i} {req}: {ids[:, 6:].tolist()}")
