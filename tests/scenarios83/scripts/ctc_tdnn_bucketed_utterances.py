import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB = 12  # blank + 11 phones
FEAT = 20


class TDNNEncoder(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Conv1d(FEAT, hidden, 5, padding=2),
            nn.Conv1d(hidden, hidden, 3, padding=2, dilation=2),
            nn.Conv1d(hidden, hidden, 3, padding=3, dilation=3),
        ])
        self.norms = nn.ModuleList([nn.BatchNorm1d(hidden) for _ in self.layers])
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, feats):
        x = feats.transpose(1, 2)
        for conv, norm in zip(self.layers, self.norms):
            x = F.relu(norm(conv(x)))
        return self.out(x.transpose(1, 2))


def ctc_step(model, feats, targets, input_lengths, target_lengths):
    logits = model(feats)
    log_probs = F.log_softmax(logits, dim=-1).transpose(0, 1)
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=True)


def make_utterances(n, rng):
    utts = []
    for _ in range(n):
        frames = int(torch.randint(30, 90, (1,), generator=rng))
        n_phones = max(2, frames // 8)
        utts.append((torch.randn(frames, FEAT, generator=rng),
                     torch.randint(1, VOCAB, (n_phones,), generator=rng)))
    return utts


def bucket_batches(utts, batch_size=4):
    utts = sorted(utts, key=lambda u: u[0].shape[0])
    for i in range(0, len(utts), batch_size):
        chunk = utts[i:i + batch_size]
        max_t = max(u[0].shape[0] for u in chunk)
        feats = torch.zeros(len(chunk), max_t, FEAT)
        for j, (f, _) in enumerate(chunk):
            feats[j, : f.shape[0]] = f
        input_lengths = [u[0].shape[0] for u in chunk]
        target_lengths = [u[1].shape[0] for u in chunk]
        targets = torch.cat([u[1] for u in chunk])
        yield feats, targets, input_lengths, target_lengths


rng = torch.Generator().manual_seed(1)
train_set = make_utterances(16, rng)

model = TDNNEncoder()
step_fn = torch.compile(ctc_step, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)

for epoch in range(2):
    model.train()
    for b, (feats, targets, in_lens, tgt_lens) in enumerate(bucket_batches(train_set)):
        loss = step_fn(model, feats, targets, in_lens, tgt_lens)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} batch {b} T={feats.shape[1]} loss {loss.item():.3f}")
