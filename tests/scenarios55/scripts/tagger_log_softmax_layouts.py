import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

NUM_TAGS = 6


class RNNTagger(nn.Module):
    # emits (batch, time, tags)
    layout_dim = -1

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, NUM_TAGS)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


class ConvTagger(nn.Module):
    # emits (batch, tags, time)
    layout_dim = 1

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.conv = nn.Conv1d(16, NUM_TAGS, 3, padding=1)

    def forward(self, tokens):
        return self.conv(self.emb(tokens).transpose(1, 2))


@torch.compile(backend="aot_eager")
def tag_nll(logits, tags, dim):
    logp = F.log_softmax(logits, dim=dim)
    logp = logp.movedim(dim, -1)
    return -logp.gather(-1, tags.unsqueeze(-1)).mean()


def main():
    tokens = torch.randint(0, 50, (8, 12))
    tags = tokens % NUM_TAGS
    models = [RNNTagger(), ConvTagger()]
    opts = [torch.optim.Adam(m.parameters(), lr=1e-2) for m in models]
    for step in range(4):
        for model, opt in zip(models, opts):
            logits = model(tokens)
            loss = tag_nll(logits, tags, model.layout_dim)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(step, [round(tag_nll(m(tokens), tags, m.layout_dim).item(), 4) for m in models])


if __name__ == "__main__":
    main()
