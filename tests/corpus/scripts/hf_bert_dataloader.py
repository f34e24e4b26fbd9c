import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=128,
    vocab_size=128,
    max_position_embeddings=64,
    num_labels=3,
)
model = BertForSequenceClassification(config)
model = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

num_samples = 50  # not a multiple of the batch size: the last batch has 2 rows
input_ids = torch.randint(0, config.vocab_size, (num_samples, 24))
attention_mask = torch.ones_like(input_ids)
labels = torch.randint(0, config.num_labels, (num_samples,))
dataset = TensorDataset(input_ids, attention_mask, labels)
loader = DataLoader(dataset, batch_size=16, shuffle=True)

for epoch in range(2):
    for batch_idx, (ids, mask, y) in enumerate(loader):
        out = model(input_ids=ids, attention_mask=mask, labels=y)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"epoch {epoch} batch {batch_idx} size {ids.shape[0]} loss {out.loss.item():.3f}")
