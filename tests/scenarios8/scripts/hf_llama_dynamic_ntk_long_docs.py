"""Scoring long documents with a small Llama that uses dynamic NTK RoPE.

The model was configured with dynamic NTK rope scaling so it can read past
its trained context of 32 positions. The user computes the per-token
perplexity of documents of growing length in eval mode.
"""

import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)

config = LlamaConfig(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=32,
    rope_parameters={"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0},
)
model = LlamaForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def perplexity(input_ids):
    out = compiled(input_ids=input_ids, labels=input_ids)
    return torch.exp(out.loss).item()


# a stream of documents of different lengths, some longer than the
# 32-token training context
doc_lengths = [24, 24, 48, 64, 40, 96]
with torch.no_grad():
    for i, n in enumerate(doc_lengths):
        doc = torch.randint(0, config.vocab_size, (1, n))
        print(f"doc {i} tokens {n:3d} ppl {perplexity(doc):.2f}")
