import torch
from transformers import DistilBertConfig, DistilBertForSequenceClassification

torch.manual_seed(0)

config = DistilBertConfig(
    vocab_size=500, dim=64, hidden_dim=128, n_layers=2, n_heads=4,
    max_position_embeddings=64, num_labels=3,
)
model = DistilBertForSequenceClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")

input_ids = torch.randint(5, 500, (8, 24))
attention_mask = torch.ones_like(input_ids)
labels = torch.randint(0, 3, (8,))


@torch.no_grad()
def evaluate(head_mask=None):
    if head_mask is None:
        out = compiled(input_ids=input_ids, attention_mask=attention_mask)
    else:
        out = compiled(input_ids=input_ids, attention_mask=attention_mask, head_mask=head_mask)
    return torch.nn.functional.cross_entropy(out.logits, labels).item()


base = evaluate()
print(f"baseline loss {base:.4f}")

# importance of each head: loss increase when it is masked out
importance = torch.zeros(config.n_layers, config.n_heads)
for layer in range(config.n_layers):
    for head in range(config.n_heads):
        mask = torch.ones(config.n_layers, config.n_heads)
        mask[layer, head] = 0.0
        importance[layer, head] = evaluate(mask) - base
print("importance", importance)

# re-check the baseline between sweeps and after pruning
print(f"baseline again {evaluate():.4f}")
keep = torch.ones(config.n_layers, config.n_heads)
keep.view(-1)[importance.view(-1).argsort()[:2]] = 0.0
print(f"pruned loss {evaluate(keep):.4f}")
print(f"baseline final {evaluate():.4f}")
