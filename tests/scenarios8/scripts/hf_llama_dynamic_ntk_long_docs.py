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


def load_documents(lengths):
    # stand-in for the tokenised corpus: one document per length
    return [torch.randint(0, config.vocab_size, (1, n)) for n in lengths]


# a stream of documents of different lengths, some longer than the
# 32-token training context
docs = load_documents([24, 24, 48, 64, 40, 96])
results = []
with torch.no_grad():
    for i, doc in enumerate(docs):
        ppl = perplexity(doc)
        results.append((doc.shape[1], ppl))
        print(f"doc {i} tokens {doc.shape[1]:3d} ppl {ppl:.2f}")
long_ppl = [p for n, p in results if n > config.max_position_embeddings]
print(f"mean ppl beyond the trained context: {sum(long_ppl) / len(long_ppl):.2f}")
