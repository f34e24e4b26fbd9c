"""Training an ALBERT encoder while fitting a linear probe on its layers.

The user fine-tunes a tiny ALBERT with a masked-token objective and, every
third step, also asks the model for all hidden states to fit a probe on the
middle layer's representation.
"""

import torch
from torch import nn
from transformers import AlbertConfig, AlbertForMaskedLM

torch.manual_seed(0)

config = AlbertConfig(
    vocab_size=120, embedding_size=16, hidden_size=32, num_hidden_layers=2,
    num_attention_heads=2, intermediate_size=64, max_position_embeddings=64,
)
model = AlbertForMaskedLM(config)
compiled = torch.compile(model, backend="aot_eager")
probe = nn.Linear(32, 2)
opt = torch.optim.AdamW(list(model.parameters()) + list(probe.parameters()), lr=1e-3)

input_ids = torch.randint(0, 120, (4, 16))
probe_labels = torch.randint(0, 2, (4,))
for step in range(9):
    want_probe = step % 3 == 2
    out = compiled(input_ids=input_ids, labels=input_ids, output_hidden_states=want_probe)
    loss = out.loss
    if want_probe:
        feats = out.hidden_states[1][:, 0]
        loss = loss + nn.functional.cross_entropy(probe(feats), probe_labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} probe {want_probe} loss {loss.item():.4f}")
