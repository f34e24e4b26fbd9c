"""Multi-dataset training of a tagger with a dict batch.

Two corpora are mixed: the crowd-labelled one comes with per-token
confidence weights and a mask of which tokens were annotated; the gold one
has neither, so its collate function leaves those keys out.
"""

import torch
from torch import nn

torch.manual_seed(0)

VOCAB, TAGS, SEQ = 1000, 9, 32


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 64)
        self.rnn = nn.GRU(64, 64, batch_first=True, bidirectional=True)
        self.out = nn.Linear(128, TAGS)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


tagger = Tagger()
opt = torch.optim.Adam(tagger.parameters(), lr=1e-3)


@torch.compile(backend="aot_eager")
def tagging_loss(batch):
    logits = tagger(batch["tokens"])
    per_token = nn.functional.cross_entropy(logits.transpose(1, 2), batch["tags"], reduction="none")
    if "annotated" in batch:
        per_token = per_token * batch["annotated"]
    if "confidence" in batch:
        per_token = per_token * batch["confidence"]
        return per_token.sum() / batch["confidence"].sum().clamp(min=1.0)
    return per_token.mean()


def gold_batch(n=8):
    return {"tokens": torch.randint(0, VOCAB, (n, SEQ)), "tags": torch.randint(0, TAGS, (n, SEQ))}


def crowd_batch(n=8):
    batch = gold_batch(n)
    batch["annotated"] = (torch.rand(n, SEQ) > 0.3).float()
    batch["confidence"] = torch.rand(n, SEQ)
    return batch


mixture = [gold_batch, gold_batch, crowd_batch, gold_batch, crowd_batch, crowd_batch, gold_batch]
for step, make in enumerate(mixture):
    batch = make()
    loss = tagging_loss(batch)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} {make.__name__} loss {loss.item():.4f}")
