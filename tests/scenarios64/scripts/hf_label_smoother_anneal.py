import torch
import torch.nn as nn
from transformers.trainer_pt_utils import LabelSmoother

torch.manual_seed(0)


class TinyTagger(nn.Module):
    def __init__(self, vocab=50, dim=32, tags=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn_proj = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, tags)

    def forward(self, ids):
        return self.cls(torch.tanh(self.rnn_proj(self.emb(ids))))


model = TinyTagger()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
smoother = LabelSmoother(epsilon=0.1)


@torch.compile(backend="aot_eager")
def tagging_loss(logits, labels):
    return smoother({"logits": logits}, labels, shift_labels=False)


ids = torch.randint(0, 50, (4, 16, 12))
labels = torch.randint(0, 6, (4, 16, 12))
labels[:, :, -2:] = -100

for epoch in range(5):
    smoother.epsilon = round(0.1 * max(0.0, 1 - epoch / 4), 3)
    total = 0.0
    for b in range(4):
        loss = tagging_loss(model(ids[b]), labels[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, smoother.epsilon, round(total / 4, 4))
