import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_ITEMS, D, MAX_LEN = 120, 32, 50
PAD = 0


class SASRec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS + 1, D, padding_idx=PAD)
        self.pos_emb = nn.Embedding(MAX_LEN, D)
        layer = nn.TransformerEncoderLayer(D, nhead=2, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D)

    def forward(self, seq):
        L = seq.shape[1]
        pos = torch.arange(L).unsqueeze(0)
        h = self.item_emb(seq) + self.pos_emb(pos)
        causal = nn.Transformer.generate_square_subsequent_mask(L)
        h = self.encoder(h, mask=causal, is_causal=True)
        h = self.norm(h)
        return h @ self.item_emb.weight.t()


def make_users(n):
    histories = []
    for _ in range(n):
        length = int(torch.randint(3, 40, ()).item())
        start = int(torch.randint(1, N_ITEMS - 40, ()).item())
        histories.append(torch.arange(start, start + length))
    return histories


def collate(histories):
    # left-pad to the longest history in the batch
    L = max(len(h) for h in histories)
    out = torch.full((len(histories), L), PAD, dtype=torch.long)
    for r, h in enumerate(histories):
        out[r, L - len(h):] = h
    return out


users = make_users(64)
users.sort(key=len)
batches = [collate(users[i:i + 16]) for i in range(0, 64, 16)]

model = SASRec()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(2):
    for seq in batches:
        inp, tgt = seq[:, :-1], seq[:, 1:]
        logits = cmodel(inp)
        loss = F.cross_entropy(logits.reshape(-1, N_ITEMS + 1), tgt.reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} len {inp.shape[1]} loss {loss.item():.4f}")
