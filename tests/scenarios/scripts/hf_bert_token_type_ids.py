import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=2,
    vocab_size=256,
    max_position_embeddings=64,
    num_labels=3,
)
model = BertForSequenceClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def classify(input_ids, token_type_ids=None):
    with torch.no_grad():
        return compiled(input_ids=input_ids, token_type_ids=token_type_ids).logits


# the service gets single sentences and sentence pairs in turn
for step in range(6):
    ids = torch.randint(0, config.vocab_size, (4, 24))
    if step % 2 == 0:
        logits = classify(ids)
    else:
        segments = torch.zeros_like(ids)
        segments[:, 12:] = 1  # second sentence of the pair
        logits = classify(ids, segments)
    print(f"step {step} pred {logits.argmax(-1).tolist()}")
