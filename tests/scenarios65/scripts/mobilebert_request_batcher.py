"""Sentiment API: a tiny MobileBERT behind a micro-batcher."""
import random

import torch
from transformers import MobileBertConfig, MobileBertForSequenceClassification

torch.manual_seed(0)
random.seed(0)

config = MobileBertConfig(
    vocab_size=300, hidden_size=64, embedding_size=32, num_hidden_layers=2,
    num_attention_heads=2, intermediate_size=64, intra_bottleneck_size=32,
    true_hidden_size=32, num_feedforward_networks=1, max_position_embeddings=64,
    num_labels=3,
)
model = MobileBertForSequenceClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")

MAX_BATCH = 4


def incoming(n):
    for _ in range(n):
        length = random.randint(6, 20)
        yield torch.randint(5, config.vocab_size, (length,))


def collate(requests):
    longest = max(len(r) for r in requests)
    ids = torch.zeros(len(requests), longest, dtype=torch.long)
    mask = torch.zeros(len(requests), longest, dtype=torch.long)
    for i, r in enumerate(requests):
        ids[i, : len(r)] = r
        mask[i, : len(r)] = 1
    return ids, mask


queue = list(incoming(22))
with torch.no_grad():
    step = 0
    while queue:
        take = random.randint(1, MAX_BATCH)
        batch, queue = queue[:take], queue[take:]
        ids, mask = collate(batch)
        logits = compiled(input_ids=ids, attention_mask=mask).logits
        print(f"batch {step}: {tuple(ids.shape)} -> {logits.argmax(-1).tolist()}")
        step += 1
