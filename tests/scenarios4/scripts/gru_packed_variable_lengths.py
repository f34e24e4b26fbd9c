"""A GRU sentence classifier over packed padded batches.

Each batch holds sentences of different lengths, padded to the longest one;
the model packs them with `pack_padded_sequence` (lengths sorted by the
collate function) so the GRU skips the padding.
"""

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

torch.manual_seed(0)


class GRUClassifier(nn.Module):
    def __init__(self, vocab=500, dim=32, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True)
        _, h = self.gru(packed)
        return self.out(h[-1])


def collate(lengths):
    lengths = torch.tensor(sorted(lengths, reverse=True))
    tokens = torch.zeros(len(lengths), int(lengths[0]), dtype=torch.long)
    for i, n in enumerate(lengths.tolist()):
        tokens[i, :n] = torch.randint(1, 500, (n,))
    return tokens, lengths


model = GRUClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for batch in [[7, 5, 5, 2], [9, 8, 3, 3], [4, 4, 1, 1], [12, 6, 6, 5], [3, 2]]:
    tokens, lengths = collate(batch)
    loss = nn.functional.cross_entropy(compiled(tokens, lengths), torch.randint(0, 3, (len(batch),)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"lengths {lengths.tolist()} loss {loss.item():.4f}")
