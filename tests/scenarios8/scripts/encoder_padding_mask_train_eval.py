"""Intent classifier on padded utterances with nn.TransformerEncoder.

Utterances are padded to a fixed length of 20 and the padding positions are
passed as `src_key_padding_mask`. The encoder keeps the default
`enable_nested_tensor=True`. After each training epoch the user runs a
validation pass in eval mode under no_grad.
"""

import torch
from torch import nn

torch.manual_seed(0)


class IntentClassifier(nn.Module):
    def __init__(self, vocab=500, dim=32, n_intents=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(dim, n_intents)

    def forward(self, ids, pad_mask):
        h = self.encoder(self.embed(ids), src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.head(pooled)


def make_batch(batch_size=16, max_len=20):
    lengths = torch.randint(4, max_len + 1, (batch_size,))
    ids = torch.randint(1, 500, (batch_size, max_len))
    pad_mask = torch.arange(max_len)[None, :] >= lengths[:, None]
    ids = ids.masked_fill(pad_mask, 0)
    return ids, pad_mask, torch.randint(0, 6, (batch_size,))


model = IntentClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
train_batches = [make_batch() for _ in range(4)]
val_batches = [make_batch() for _ in range(2)]

for epoch in range(2):
    model.train()
    for ids, pad_mask, labels in train_batches:
        loss = nn.functional.cross_entropy(compiled(ids, pad_mask), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for ids, pad_mask, labels in val_batches:
            correct += (compiled(ids, pad_mask).argmax(-1) == labels).sum().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {correct / 32:.3f}")
