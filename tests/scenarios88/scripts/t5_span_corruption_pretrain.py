import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB = 200
NUM_SENTINELS = 20
SENTINEL0 = VOCAB - NUM_SENTINELS
PAD = 0


def span_corrupt(tokens, noise_density=0.15, mean_span=3):
    # T5-style span corruption on one document (python side, like a collator)
    n = len(tokens)
    num_noise = max(1, round(n * noise_density))
    num_spans = max(1, round(num_noise / mean_span))
    starts = sorted(torch.randperm(n - mean_span)[:num_spans].tolist())
    inputs, targets, pos, sid = [], [], 0, 0
    for s in starts:
        if s < pos:
            continue
        inputs += tokens[pos:s] + [SENTINEL0 + sid]
        targets += [SENTINEL0 + sid] + tokens[s:s + mean_span]
        pos = s + mean_span
        sid += 1
    inputs += tokens[pos:]
    return inputs, targets


def collate(docs):
    pairs = [span_corrupt(d) for d in docs]
    li = max(len(p[0]) for p in pairs)
    lt = max(len(p[1]) for p in pairs)
    inp = torch.full((len(docs), li), PAD)
    tgt = torch.full((len(docs), lt), -100)
    for i, (a, b) in enumerate(pairs):
        inp[i, :len(a)] = torch.tensor(a)
        tgt[i, :len(b)] = torch.tensor(b)
    return inp, tgt


class TinySeq2Seq(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.enc = nn.TransformerEncoderLayer(d, 4, 64, batch_first=True, dropout=0.0)
        self.dec_q = nn.Parameter(torch.randn(64, d) * 0.02)
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.out = nn.Linear(d, VOCAB)

    def forward(self, inp, tgt_len):
        pad_mask = inp == PAD
        h = self.enc(self.emb(inp), src_key_padding_mask=pad_mask)
        q = self.dec_q[:tgt_len].unsqueeze(0).expand(inp.size(0), -1, -1)
        o, _ = self.attn(q, h, h, key_padding_mask=pad_mask)
        return self.out(o)


model = TinySeq2Seq()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(6):
    lengths = torch.randint(24, 60, (4,)).tolist()
    docs = [torch.randint(1, SENTINEL0, (n,)).tolist() for n in lengths]
    inp, tgt = collate(docs)
    logits = compiled(inp, tgt.size(1))
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} inp={tuple(inp.shape)} tgt={tuple(tgt.shape)} loss={loss.item():.4f}")
