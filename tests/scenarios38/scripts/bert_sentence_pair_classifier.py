"""Fine-tune a tiny BERT classifier on a mix of single-sentence and sentence-pair tasks."""
import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=512,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=64,
    type_vocab_size=2,
    num_labels=3,
)
model = BertForSequenceClassification(config)
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)


def train_step(input_ids, attention_mask, token_type_ids, labels):
    out = model(
        input_ids=input_ids,
        attention_mask=attention_mask,
        token_type_ids=token_type_ids,
        labels=labels,
    )
    return out.loss


step_fn = torch.compile(train_step, backend="aot_eager")


def single_batch(bs=8, seq=24):
    ids = torch.randint(5, 512, (bs, seq))
    ids[:, 0] = 2  # [CLS]
    mask = torch.ones(bs, seq, dtype=torch.long)
    return ids, mask, None


def pair_batch(bs=8, seq=24):
    ids = torch.randint(5, 512, (bs, seq))
    ids[:, 0] = 2
    cut = seq // 2
    ids[:, cut] = 3  # [SEP]
    types = torch.zeros(bs, seq, dtype=torch.long)
    types[:, cut + 1:] = 1
    mask = torch.ones(bs, seq, dtype=torch.long)
    return ids, mask, types


# task mixture: sentiment (single), NLI (pair)
schedule = ["single", "single", "pair", "single", "pair", "pair"]
for step, kind in enumerate(schedule):
    ids, mask, types = single_batch() if kind == "single" else pair_batch()
    labels = torch.randint(0, 3, (ids.shape[0],))
    loss = step_fn(ids, mask, types, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} {kind:6s} loss {loss.item():.4f}")
