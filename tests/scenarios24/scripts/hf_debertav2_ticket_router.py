"""Route support tickets to queues with a small DeBERTa-v2 classifier.

Tickets come from the helpdesk export already tokenised; every batch is
padded to its longest ticket. We fine-tune for a few steps and then score
the evening's backlog.
"""

import torch
from transformers import DebertaV2Config, DebertaV2ForSequenceClassification

torch.manual_seed(0)

config = DebertaV2Config(
    vocab_size=500,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=128,
    relative_attention=True,
    position_buckets=32,
    pos_att_type=["p2c", "c2p"],
    num_labels=5,
)
model = DebertaV2ForSequenceClassification(config)
router = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)


def make_batch(lengths):
    # pad every ticket to the longest one in the batch
    longest = max(lengths)
    ids = torch.zeros(len(lengths), longest, dtype=torch.long)
    mask = torch.zeros(len(lengths), longest, dtype=torch.long)
    for i, n in enumerate(lengths):
        ids[i, :n] = torch.randint(5, config.vocab_size, (n,))
        mask[i, :n] = 1
    return ids, mask


# a few fine-tuning steps on last week's labelled tickets
model.train()
for step in range(4):
    ids, mask = make_batch([24, 18, 30, 22])
    labels = torch.randint(0, config.num_labels, (4,))
    out = router(input_ids=ids, attention_mask=mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} loss {out.loss.item():.4f}")

# score the backlog; short tickets and long ones arrive in separate exports
model.eval()
backlog = [[30, 12, 9, 27], [41, 33, 38, 40], [11, 7, 14, 6]]
with torch.no_grad():
    for lengths in backlog:
        ids, mask = make_batch(lengths)
        queues = router(input_ids=ids, attention_mask=mask).logits.argmax(-1)
        print("queues", queues.tolist(), "padded to", ids.shape[1])
