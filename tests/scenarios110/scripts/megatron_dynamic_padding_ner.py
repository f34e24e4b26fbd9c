"""Token classification with MegatronBERT, sentences padded per batch to
the longest sentence in the batch (dynamic padding), -100 on padding."""
import random
import torch
from transformers import MegatronBertConfig, MegatronBertForTokenClassification

torch.manual_seed(0)
random.seed(0)
cfg = MegatronBertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=64, num_labels=7)
model = MegatronBertForTokenClassification(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
cmodel = torch.compile(model, backend="aot_eager")

corpus = [(torch.randint(5, 200, (n,)), torch.randint(0, 7, (n,)))
          for n in [random.randint(5, 30) for _ in range(64)]]


def collate(examples):
    width = max(len(x) for x, _ in examples)
    ids = torch.zeros(len(examples), width, dtype=torch.long)
    mask = torch.zeros(len(examples), width, dtype=torch.long)
    labels = torch.full((len(examples), width), -100)
    for i, (x, y) in enumerate(examples):
        ids[i, :len(x)], mask[i, :len(x)], labels[i, :len(y)] = x, 1, y
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


model.train()
for step in range(6):
    batch = collate(corpus[step * 8:(step + 1) * 8])
    out = cmodel(**batch)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} shape {tuple(batch['input_ids'].shape)} loss {out.loss.item():.3f}")
