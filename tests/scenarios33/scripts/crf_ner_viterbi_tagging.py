"""Named-entity tagger: convolutional emissions + a linear-chain CRF.

Training uses the CRF negative log-likelihood; at evaluation the best tag
path is decoded with Viterbi. Sentences come one at a time (no padding),
so every sentence has its own length.
"""

import torch
from torch import nn

torch.manual_seed(0)

NUM_TAGS = 5  # O, B-PER, I-PER, B-LOC, I-LOC
VOCAB = 200


class ConvCrf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.conv = nn.Conv1d(32, 48, 3, padding=1)
        self.proj = nn.Linear(48, NUM_TAGS)
        self.transitions = nn.Parameter(torch.randn(NUM_TAGS, NUM_TAGS) * 0.1)
        self.start = nn.Parameter(torch.zeros(NUM_TAGS))
        self.end = nn.Parameter(torch.zeros(NUM_TAGS))

    def emissions(self, tokens):
        h = torch.relu(self.conv(self.emb(tokens).T[None]))[0].T
        return self.proj(h)  # (T, NUM_TAGS)

    def nll(self, tokens, tags):
        em = self.emissions(tokens)
        # score of the gold path
        score = em.gather(1, tags[:, None]).sum()
        score = score + self.transitions[tags[:-1], tags[1:]].sum()
        score = score + (self.start * (tags[:1, None] == torch.arange(NUM_TAGS)).float()).sum()
        score = score + (self.end * (tags[-1:, None] == torch.arange(NUM_TAGS)).float()).sum()
        # forward algorithm for the partition function
        alpha = self.start + em[0]
        for t in range(1, tokens.shape[0]):
            alpha = torch.logsumexp(alpha[:, None] + self.transitions + em[t][None], dim=0)
        log_z = torch.logsumexp(alpha + self.end, dim=0)
        return log_z - score

    def viterbi(self, tokens):
        em = self.emissions(tokens)
        best = self.start + em[0]
        backptrs = []
        for t in range(1, tokens.shape[0]):
            cand = best[:, None] + self.transitions
            best, idx = cand.max(dim=0)
            best = best + em[t]
            backptrs.append(idx)
        best = best + self.end
        last = best.argmax().view(1)
        path = [last]
        for idx in reversed(backptrs):
            last = idx.gather(0, last)
            path.append(last)
        return torch.cat(path[::-1])


model = ConvCrf()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
train_loss = torch.compile(model.nll, backend="aot_eager")
decode = torch.compile(model.viterbi, backend="aot_eager")

# toy corpus: every sentence in this shard happens to be 12 tokens long
train = [(torch.randint(0, VOCAB, (12,)), torch.randint(0, NUM_TAGS, (12,))) for _ in range(20)]
for epoch in range(2):
    total = 0.0
    for tokens, tags in train:
        loss = train_loss(tokens, tags)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} nll {total / len(train):.3f}")

# dev sentences of natural lengths
dev_lengths = [7, 12, 9, 15, 7, 5]
with torch.no_grad():
    for n in dev_lengths:
        tokens = torch.randint(0, VOCAB, (n,))
        tags = decode(tokens)
        print(n, tags.tolist())
