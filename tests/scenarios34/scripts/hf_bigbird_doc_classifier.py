"""Serving a BigBird document classifier on requests of mixed length.

Short snippets and long documents come through the same compiled model.
The tiny random config stands in for a fine-tuned checkpoint.
"""

import torch
from transformers import BigBirdConfig, BigBirdForSequenceClassification

torch.manual_seed(0)

config = BigBirdConfig(
    vocab_size=500,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=1024,
    attention_type="block_sparse",
    block_size=16,
    num_random_blocks=2,
    num_labels=3,
)
model = BigBirdForSequenceClassification(config).eval()
model = torch.compile(model, backend="aot_eager")


def classify(token_ids):
    input_ids = torch.tensor([token_ids])
    attention_mask = torch.ones_like(input_ids)
    with torch.no_grad():
        logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
    return logits.argmax(-1).item()


# lengths of incoming documents (tokens); padded to a multiple of 64 upstream
doc_lengths = [512, 512, 128, 512, 64]
for n in doc_lengths:
    ids = torch.randint(5, 500, (n,)).tolist()
    print(f"doc of {n} tokens -> label {classify(ids)}")
