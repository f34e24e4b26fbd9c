"""Pairwise (Bradley-Terry) reward model on chosen/rejected responses of varying length."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D = 80, 32


class RewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        layer = nn.TransformerEncoderLayer(D, 2, 64, dropout=0.0, batch_first=True)
        self.body = nn.TransformerEncoder(layer, 1)
        self.head = nn.Linear(D, 1)

    def forward(self, ids, lengths):
        h = self.body(self.emb(ids))
        last = h[torch.arange(ids.size(0)), lengths - 1]
        return self.head(last).squeeze(-1)


rm = RewardModel()
crm = torch.compile(rm, backend="aot_eager")
opt = torch.optim.Adam(rm.parameters(), lr=3e-4)


def collate(pairs):
    longest = max(max(len(c), len(r)) for c, r in pairs)
    ids = torch.zeros(2 * len(pairs), longest, dtype=torch.long)
    lengths = torch.zeros(2 * len(pairs), dtype=torch.long)
    for i, (c, r) in enumerate(pairs):
        ids[i, : len(c)] = c
        lengths[i] = len(c)
        ids[len(pairs) + i, : len(r)] = r
        lengths[len(pairs) + i] = len(r)
    return ids, lengths


response_lengths = [(12, 10), (12, 9), (20, 14), (17, 26), (9, 11)]
for step, (lc, lr) in enumerate(response_lengths):
    pairs = [(torch.randint(1, VOCAB, (lc - k,)), torch.randint(1, VOCAB, (lr - k,))) for k in range(4)]
    ids, lengths = collate(pairs)
    rewards = crm(ids, lengths)
    chosen, rejected = rewards.chunk(2)
    loss = -F.logsigmoid(chosen - rejected).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} seq {ids.shape[1]} loss {loss.item():.4f}")
