"""Perplexity of a small Mistral under different attention windows.

A user trained a tiny Mistral and wants to know how much a shorter sliding
window costs. They evaluate the same held-out batch once per window by
setting `model.config.sliding_window` before each evaluation.
"""

import torch
from transformers import MistralConfig, MistralForCausalLM

torch.manual_seed(0)

config = MistralConfig(
    vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
    num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128,
    sliding_window=64,
)
model = MistralForCausalLM(config).eval()
compiled = torch.compile(model, backend="aot_eager")
held_out = torch.randint(0, 128, (2, 48))

for window in [64, 32, 16, 8, 4]:
    model.config.sliding_window = window
    with torch.no_grad():
        loss = compiled(input_ids=held_out, labels=held_out).loss
    print(f"window {window:3d} perplexity {loss.exp().item():.2f}")
