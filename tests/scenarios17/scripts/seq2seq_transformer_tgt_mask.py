"""Tiny seq2seq copy-reverse task with nn.Transformer.

Source batches come padded (with a key padding mask) from the bucketed
loader; some buckets have no padding at all, so we skip the mask there.
The causal target mask is built for each target length.
"""

import torch
from torch import nn

torch.manual_seed(0)
VOCAB, D = 40, 32


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(VOCAB, D)
        self.tgt_emb = nn.Embedding(VOCAB, D)
        self.core = nn.Transformer(d_model=D, nhead=4, num_encoder_layers=1,
                                   num_decoder_layers=1, dim_feedforward=64,
                                   dropout=0.0, batch_first=True)
        self.out = nn.Linear(D, VOCAB)

    def forward(self, src, tgt_in, tgt_mask, src_pad=None):
        h = self.core(self.src_emb(src), self.tgt_emb(tgt_in), tgt_mask=tgt_mask,
                      src_key_padding_mask=src_pad, memory_key_padding_mask=src_pad)
        return self.out(h)


model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
step_fn = torch.compile(model, backend="aot_eager")


def make_batch(src_len, padded):
    src = torch.randint(1, VOCAB, (4, src_len))
    tgt = src.flip(1)
    pad = None
    if padded:
        pad = torch.zeros(4, src_len, dtype=torch.bool)
        pad[0, src_len // 2:] = True
        src = src.masked_fill(pad, 0)
    return src, tgt, pad


# (source length, has padding) per bucket
buckets = [(12, True), (12, True), (12, False), (12, True), (12, False)]
for it, (L, padded) in enumerate(buckets):
    src, tgt, pad = make_batch(L, padded)
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    mask = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1))
    logits = step_fn(src, tgt_in, mask, pad)
    loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tgt_out.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} len {L} padded {padded} loss {loss.item():.4f}")
