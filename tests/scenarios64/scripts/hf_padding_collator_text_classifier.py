import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import DataCollatorWithPadding, PreTrainedTokenizerFast

torch.manual_seed(0)
random.seed(0)

WORDS = ["good", "bad", "movie", "plot", "actor", "great", "boring", "fun", "slow", "story",
         "music", "scene", "ending", "awful", "lovely", "the", "a", "was", "very", "not"]
vocab = {"[PAD]": 0, "[UNK]": 1}
for w in WORDS:
    vocab[w] = len(vocab)
core = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]")


def make_review(n):
    return " ".join(random.choice(WORDS) for _ in range(n))


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, input_ids, attention_mask):
        h = torch.relu(self.proj(self.emb(input_ids)))
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.out(pooled)


model = BagClassifier(len(vocab))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8, return_tensors="pt")
compiled = torch.compile(model, backend="aot_eager")

lengths = [5, 7, 6, 3, 12, 9, 14, 4, 20, 6, 11, 18]
for step in range(8):
    feats = []
    for i in range(8):
        n = lengths[(step + i) % len(lengths)] if step % 3 else random.randint(3, 7)
        enc = tokenizer(make_review(n))
        enc["labels"] = random.randint(0, 1)
        feats.append(enc)
    batch = collator(feats)
    logits = compiled(batch["input_ids"], batch["attention_mask"])
    loss = F.cross_entropy(logits, batch["labels"])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, tuple(batch["input_ids"].shape), round(loss.item(), 4))
