"""Intent classifier over tokenised utterances with an LSTM.

The collate step is left to the model: it takes the list of token tensors
as they come from the dataset, pads them with pad_sequence, packs them
(unsorted) and runs a bidirectional LSTM.
"""

import random

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
random.seed(0)

PAD = 0


class IntentLSTM(nn.Module):
    def __init__(self, vocab=300, dim=32, hidden=48, n_intents=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.lstm = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_intents)

    def forward(self, utterances):
        padded = pad_sequence(utterances, batch_first=True, padding_value=PAD)
        mask = (padded != PAD).unsqueeze(-1)
        packed = pack_sequence([self.embed(u) for u in utterances], enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
        pooled = (out * mask).sum(1) / mask.sum(1)
        return self.out(pooled)


def make_dataset(n=96):
    data = []
    for _ in range(n):
        length = random.randint(3, 20)
        data.append((torch.randint(1, 300, (length,)), random.randrange(6)))
    return data


model = IntentLSTM()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
data = make_dataset()

for epoch in range(2):
    random.shuffle(data)
    for i in range(0, len(data), 16):
        batch = data[i : i + 16]
        utterances = [u for u, _ in batch]
        target = torch.tensor([c for _, c in batch])
        loss = F.cross_entropy(compiled(utterances), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} last loss {loss.item():.4f}")
