import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_LABELS = 12


def build_targets(labels, valid, off_value):
    onehot = F.one_hot(labels, N_LABELS).float()
    on_value = 1.0 - off_value * (N_LABELS - 1)
    targets = torch.where(onehot.bool(), onehot * on_value, off_value)
    # padded positions get an all-zero target row
    return torch.where(valid.unsqueeze(-1), targets, 0.0)


build_targets_c = torch.compile(build_targets, backend="aot_eager")


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.out = nn.Linear(32, N_LABELS)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def run_epoch(smoothing, train=True):
    off_value = smoothing / N_LABELS if smoothing > 0 else 0.0
    total = 0.0
    for _ in range(3):
        tokens = torch.randint(0, 100, (4, 10))
        labels = torch.randint(0, N_LABELS, (4, 10))
        valid = torch.rand(4, 10) > 0.2
        targets = build_targets_c(labels, valid, off_value)
        logits = model(tokens)
        loss = -(targets * F.log_softmax(logits, -1)).sum(-1).sum() / valid.sum()
        if train:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += loss.item()
    return total / 3


# label smoothing on for training epochs, off for the evaluation pass
for epoch in range(3):
    tr = run_epoch(smoothing=0.1, train=True)
    ev = run_epoch(smoothing=0.0, train=False)
    print(f"epoch {epoch} train {tr:.4f} eval {ev:.4f}")
