import torch
from transformers import RobertaConfig, RobertaForSequenceClassification

torch.manual_seed(0)

config = RobertaConfig(
    vocab_size=120, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=80, num_labels=3,
)
model = RobertaForSequenceClassification(config)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)


def train_step(vocab):
    ids = torch.randint(3, vocab, (8, 24))
    opt.zero_grad()
    out = compiled(input_ids=ids, attention_mask=torch.ones_like(ids), labels=torch.randint(0, 3, (8,)))
    out.loss.backward()
    opt.step()
    return out.loss.item()


for step in range(2):
    print(f"step {step} loss {train_step(120):.4f}")

# domain adaptation: new special tokens ([ENTITY], [DATE], ...) are added to the tokenizer
model.resize_token_embeddings(128)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(2, 4):
    print(f"step {step} loss {train_step(128):.4f}")
