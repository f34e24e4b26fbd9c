"""Tiny conv acoustic model trained with CTC; the same compiled loss function
is used for training (batch mean) and for per-utterance scoring on a dev set
(no reduction), as a WER-free sanity check."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB = 12  # blank + 11 symbols
N_MELS = 20


class ConvCTC(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(N_MELS, 48, 5, padding=2), nn.GELU(),
            nn.Conv1d(48, 48, 5, padding=2), nn.GELU(),
        )
        self.out = nn.Linear(48, VOCAB)

    def forward(self, x):  # x: (B, N_MELS, T)
        h = self.net(x).transpose(1, 2)
        return self.out(h).log_softmax(-1)


model = ConvCTC()


@torch.compile(backend="aot_eager")
def ctc_objective(feats, targets, in_lens, tgt_lens, reduction):
    logp = model(feats).transpose(0, 1)  # (T, B, V)
    return F.ctc_loss(logp, targets, in_lens, tgt_lens, blank=0,
                      reduction=reduction, zero_infinity=True)


def make_batch(b=8, t=60, max_tgt=10):
    feats = torch.randn(b, N_MELS, t)
    in_lens = torch.full((b,), t, dtype=torch.long)
    tgt_lens = torch.randint(4, max_tgt + 1, (b,))
    targets = torch.randint(1, VOCAB, (b, max_tgt))
    return feats, targets, in_lens, tgt_lens


opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
train = [make_batch() for _ in range(4)]
dev = make_batch()

for epoch in range(2):
    model.train()
    for feats, targets, in_lens, tgt_lens in train:
        loss = ctc_objective(feats, targets, in_lens, tgt_lens, "mean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        per_utt = ctc_objective(*dev, "none")
    print(f"epoch {epoch} train {loss.item():.3f} dev per-utt {per_utt.tolist()[:3]}")
