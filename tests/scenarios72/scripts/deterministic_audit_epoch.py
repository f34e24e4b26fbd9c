import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TextCNN(nn.Module):
    def __init__(self, vocab=200, dim=16, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.conv = nn.Conv1d(dim, 24, 3, padding=1)
        self.head = nn.Linear(24, n_cls)

    def forward(self, ids):
        h = self.emb(ids).transpose(1, 2)
        h = F.relu(self.conv(h)).amax(-1)
        return self.head(h)


model = TextCNN()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
cmodel = torch.compile(model, backend="aot_eager")


def epoch(n_batches):
    last = 0.0
    for _ in range(n_batches):
        ids = torch.randint(0, 200, (8, 20))
        y = torch.randint(0, 3, (8,))
        loss = F.cross_entropy(cmodel(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        last = loss.item()
    return last


for ep in range(4):
    audit = ep == 2
    if audit:
        # reproducibility audit: report nondeterministic kernels for one epoch
        torch.set_deterministic_debug_mode("warn")
    print(ep, audit, round(epoch(3), 4))
    if audit:
        torch.set_deterministic_debug_mode("default")
