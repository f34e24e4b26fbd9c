"""Token tagging model trained on a mixture of corpora.

Each corpus came out of a different preprocessing script, so the label used
for padding / "don't score this token" differs: one uses -100, one uses the
tag set's own "O" padding id 0, one uses 17. The per-corpus settings live in
a small config table and are passed to the loss.
"""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

VOCAB, TAGS, DIM = 1000, 18, 48

CORPORA = {
    "news": {"pad_label": -100, "weight": 1.0},
    "wiki": {"pad_label": 0, "weight": 0.5},
    "clinical": {"pad_label": 17, "weight": 2.0},
}


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.enc = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.cls = nn.Linear(DIM, TAGS)

    def forward(self, tokens):
        return self.cls(self.enc(self.emb(tokens)))


model = Tagger()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def tagging_loss(tokens, labels, pad_label):
    logits = model(tokens)
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=pad_label)


def batch_for(name):
    tokens = torch.randint(0, VOCAB, (8, 20))
    labels = torch.randint(1, 17, (8, 20))
    labels[:, 15:] = CORPORA[name]["pad_label"]  # padded tail
    return tokens, labels


schedule = ["news", "news", "wiki", "news", "clinical", "wiki", "clinical", "news"]
for step, name in enumerate(schedule):
    cfg = CORPORA[name]
    tokens, labels = batch_for(name)
    loss = tagging_loss(tokens, labels, cfg["pad_label"]) * cfg["weight"]
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} [{name}] loss {loss.item():.4f}")
