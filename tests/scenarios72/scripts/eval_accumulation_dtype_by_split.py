import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tagger(nn.Module):
    def __init__(self, vocab=300, dim=24, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.conv = nn.Conv1d(dim, dim, 5, padding=2)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + torch.tanh(self.conv(h.transpose(1, 2))).transpose(1, 2)
        return self.out(h)


model = Tagger().eval()


def score_batch(ids, tags, acc_dtype):
    logits = model(ids)
    logp = logits.to(acc_dtype).log_softmax(-1)
    nll = -logp.gather(-1, tags.unsqueeze(-1)).squeeze(-1)
    out_dtype = torch.promote_types(acc_dtype, logits.dtype)
    total = nll.sum(dtype=out_dtype)
    correct = (logp.argmax(-1) == tags).sum()
    return total, correct


score = torch.compile(score_batch, backend="aot_eager")


def evaluate(n_batches, acc_dtype):
    total = torch.zeros((), dtype=acc_dtype)
    correct = 0
    for _ in range(n_batches):
        ids = torch.randint(0, 300, (8, 15))
        tags = torch.randint(0, 9, (8, 15))
        t, c = score(ids, tags, acc_dtype)
        total += t
        correct += int(c)
    n = n_batches * 8 * 15
    return float(total) / n, correct / n


with torch.no_grad():
    for split in ["dev", "dev", "test"]:
        # the held-out test numbers go into the paper: accumulate in double
        acc = torch.float64 if split == "test" else torch.float32
        print(split, evaluate(3, acc))
