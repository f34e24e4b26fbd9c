import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

CAPACITY = 512
N_OOV = 16


class Vocab:
    """Maps raw merchant strings to ids; refreshed once per day."""

    def __init__(self):
        self.index = {}

    def refresh(self, tokens):
        for t in tokens:
            if t not in self.index:
                self.index[t] = len(self.index)

    def __len__(self):
        return len(self.index)

    def lookup(self, tokens):
        return torch.tensor([self.index.get(t, CAPACITY + hash(t) % 9973) for t in tokens])


class FraudScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.merchant = nn.Embedding(CAPACITY + N_OOV, 16)
        self.num = nn.Linear(4, 16)
        self.head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, merchant_ids, numeric, vocab_size):
        known = merchant_ids < vocab_size
        oov = CAPACITY + merchant_ids % N_OOV
        ids = torch.where(known, merchant_ids, oov)
        h = torch.cat([self.merchant(ids), self.num(numeric)], dim=-1)
        return self.head(h).squeeze(-1)


def day_of_transactions(day, n=96):
    pool = [f"m{j}" for j in range(40 + 25 * day)]
    picks = torch.randint(0, len(pool), (n,)).tolist()
    tokens = [pool[p] for p in picks]
    numeric = torch.randn(n, 4)
    y = (numeric[:, 0] + 0.1 * torch.tensor(picks).float() / len(pool) > 0.5).float()
    return tokens, numeric, y


vocab = Vocab()
model = FraudScorer()
score = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for day in range(5):
    tokens, numeric, y = day_of_transactions(day)
    # yesterday's vocabulary serves today's traffic, then it is refreshed
    for chunk in range(3):
        sl = slice(chunk * 32, (chunk + 1) * 32)
        ids = vocab.lookup(tokens[sl])
        logits = score(ids, numeric[sl], len(vocab))
        loss = F.binary_cross_entropy_with_logits(logits, y[sl])
        opt.zero_grad()
        loss.backward()
        opt.step()
    vocab.refresh(tokens)
    print(f"day {day} vocab {len(vocab)} loss {loss.item():.4f}")
