"""Toy GRU encoder-decoder translator with a hand-written beam search; beam width per request tier."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SRC_V, TGT_V, DIM, BOS, EOS = 120, 100, 48, 1, 2


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(SRC_V, DIM)
        self.tgt_emb = nn.Embedding(TGT_V, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.decoder = nn.GRUCell(DIM * 2, DIM)
        self.out = nn.Linear(DIM, TGT_V)

    def encode(self, src):
        mem, h = self.encoder(self.src_emb(src))
        return mem, h[0]

    def decode_step(self, tok, h, mem):
        scores = torch.einsum("bd,bsd->bs", h, mem)
        ctx = torch.einsum("bs,bsd->bd", scores.softmax(-1), mem)
        h = self.decoder(torch.cat([self.tgt_emb(tok), ctx], -1), h)
        return F.log_softmax(self.out(h), -1), h


model = Seq2Seq().eval()


def beam_step(tok, h, mem, beam_scores, num_beams):
    logp, h = model.decode_step(tok, h, mem)
    total = (beam_scores[:, None] + logp).view(-1)
    top_scores, flat = total.topk(num_beams)
    parent = flat // TGT_V
    return flat % TGT_V, h[parent], top_scores, parent


beam_step = torch.compile(beam_step, backend="aot_eager")


@torch.no_grad()
def translate(src, num_beams, max_len=8):
    mem, h = model.encode(src[None])
    mem, h = mem.expand(num_beams, -1, -1), h.expand(num_beams, -1)
    tok = torch.full((num_beams,), BOS)
    scores = torch.zeros(num_beams)
    scores[1:] = float("-inf")  # start from a single live beam
    hyps = torch.zeros((num_beams, 0), dtype=torch.long)
    for _ in range(max_len):
        tok, h, scores, parent = beam_step(tok, h, mem, scores, num_beams)
        hyps = torch.cat([hyps[parent], tok[:, None]], 1)
        if (tok == EOS).all():
            break
    return hyps[0]


TIERS = {"free": 2, "pro": 4, "batch": 2}
requests = [("free", 10), ("free", 10), ("pro", 10), ("batch", 14), ("pro", 10), ("free", 10)]
for tier, src_len in requests:
    src = torch.randint(3, SRC_V, (src_len,))
    out = translate(src, TIERS[tier])
    print(f"{tier:5s} len={src_len} -> {out.tolist()}")
