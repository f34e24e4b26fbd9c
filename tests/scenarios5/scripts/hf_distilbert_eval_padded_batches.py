"""Evaluating a small DistilBERT sentiment classifier on a review set.

The user's evaluation loader pads every batch to its own longest review, so
the token length of the batches follows the data: 12, 12, 19, 7, 25.
"""

import torch
from transformers import DistilBertConfig, DistilBertForSequenceClassification

torch.manual_seed(0)

config = DistilBertConfig(
    vocab_size=200, dim=32, hidden_dim=64, n_layers=1, n_heads=2,
    max_position_embeddings=64, num_labels=2,
)
model = DistilBertForSequenceClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")

correct = 0
for length in [12, 12, 19, 7, 25]:
    input_ids = torch.randint(1, 200, (4, length))
    attention_mask = torch.ones(4, length, dtype=torch.long)
    attention_mask[0, length // 2:] = 0
    labels = torch.randint(0, 2, (4,))
    with torch.no_grad():
        logits = compiled(input_ids=input_ids, attention_mask=attention_mask).logits
    correct += (logits.argmax(-1) == labels).sum().item()
    print(f"length {length:2d} running correct {correct}")
