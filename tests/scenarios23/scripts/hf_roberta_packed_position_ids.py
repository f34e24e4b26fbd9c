"""Fine-tune a small RoBERTa classifier on a mix of plain and packed batches.

Short reviews are packed two per row to save padding; for those rows we
pass explicit position_ids that restart at the second review, so each
review gets its own positions. Plain batches let the model make positions.
"""

import torch
import torch.nn.functional as F
from transformers import RobertaConfig, RobertaForSequenceClassification

torch.manual_seed(0)

cfg = RobertaConfig(
    vocab_size=500,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    max_position_embeddings=80,
    num_labels=3,
)
model = RobertaForSequenceClassification(cfg)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

SEQ = 32
PAD = cfg.pad_token_id


def plain_batch(bs=8):
    ids = torch.randint(3, cfg.vocab_size, (bs, SEQ))
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}


def packed_batch(bs=8):
    ids = torch.randint(3, cfg.vocab_size, (bs, SEQ))
    half = SEQ // 2
    # positions restart for the second review in each row (offset by pad idx like RoBERTa)
    first = torch.arange(half) + PAD + 1
    pos = torch.cat([first, first]).expand(bs, SEQ).contiguous()
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "position_ids": pos}


for step in range(8):
    batch = packed_batch() if step % 3 == 1 else plain_batch()
    labels = torch.randint(0, cfg.num_labels, (8,))
    out = compiled(**batch)
    loss = F.cross_entropy(out.logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} packed={'position_ids' in batch} loss {loss.item():.4f}")
