import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, MAX_LEN = 64, 64


class TinyLM(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.pos = nn.Embedding(MAX_LEN, dim)
        layer = nn.TransformerEncoderLayer(dim, 2, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.head = nn.Linear(dim, VOCAB)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1])
        return self.head(self.enc(self.emb(ids) + self.pos(pos)))


model = TinyLM()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def train_step(tokens, seq_len):
    window = tokens.narrow(1, 0, seq_len + 1)
    inp, tgt = window[:, :-1], window[:, 1:]
    logits = model(inp)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
    loss.backward()
    return loss


step_fn = torch.compile(train_step, backend="aot_eager")

data = torch.randint(0, VOCAB, (64, MAX_LEN + 1))
schedule = {0: 8, 1: 16, 2: 24, 3: 32, 4: 48}
for epoch, seq_len in schedule.items():
    total = 0.0
    for i in range(0, 64, 16):
        opt.zero_grad()
        loss = step_fn(data[i : i + 16], seq_len)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} len {seq_len} loss {total / 4:.3f}")
