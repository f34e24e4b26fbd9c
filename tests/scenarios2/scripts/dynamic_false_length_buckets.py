import torch
from torch import nn

torch.manual_seed(0)

BUCKETS = (16, 32, 64)


class IntentClassifier(nn.Module):
    def __init__(self, vocab=300, dim=32, intents=7):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.encoder = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=64, batch_first=True)
        self.head = nn.Linear(dim, intents)

    def forward(self, ids, pad_mask):
        h = self.encoder(self.embed(ids), src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))


model = IntentClassifier().eval()
# static shapes on purpose: requests are padded to a few bucket lengths
compiled = torch.compile(model, backend="aot_eager", dynamic=False)


def pad_to_bucket(texts):
    longest = max(len(t) for t in texts)
    length = next(b for b in BUCKETS if b >= longest)
    ids = torch.zeros(len(texts), length, dtype=torch.long)
    for row, t in enumerate(texts):
        ids[row, : len(t)] = torch.tensor(t)
    return ids, ids == 0


queue = [[list(range(1, n + 1)) for n in torch.randint(4, hi, (8,)).tolist()] for hi in (15, 12, 30, 60, 14)]
queue.append(queue[0][:5])  # the last micro-batch of the day is short
for texts in queue:
    ids, pad_mask = pad_to_bucket(texts)
    with torch.no_grad():
        intents = compiled(ids, pad_mask).argmax(-1)
    print(f"batch {tuple(ids.shape)} -> {intents.tolist()}")
