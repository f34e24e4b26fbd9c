import torch
from torch import nn

torch.manual_seed(0)


class TinyTagger(nn.Module):
    def __init__(self, vocab=100, dim=32, tags=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.classifier = nn.Linear(dim, tags)

    def forward(self, tokens):
        return self.classifier(self.encoder(self.embed(tokens)))


model = TinyTagger()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for step in range(6):
    if step == 3:
        # embeddings have converged: stop updating them, keep training the rest
        model.embed.weight.requires_grad_(False)
    tokens = torch.randint(0, 100, (8, 10))
    tags = torch.randint(0, 5, (8, 10))
    loss = nn.functional.cross_entropy(compiled(tokens).flatten(0, 1), tags.flatten())
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
