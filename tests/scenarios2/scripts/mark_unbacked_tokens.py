import torch
from torch import nn

torch.manual_seed(0)


class TokenMixer(nn.Module):
    def __init__(self, vocab=100, dim=32, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.head = nn.Linear(dim, 2)

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1])
        h = self.embed(tokens) + self.pos(positions)
        h = h + self.mlp(h)
        return self.head(h.mean(dim=1))


model = TokenMixer().eval()
compiled = torch.compile(model, backend="aot_eager")

# a request router: requests arrive in micro-batches of any size, padded to a length bucket
requests = [(4, 32), (7, 32), (1, 32), (3, 48), (5, 48), (2, 64)]
for batch, length in requests:
    tokens = torch.randint(0, 100, (batch, length))
    # the batch size can be anything, even 1: never specialise on it
    torch._dynamo.decorators.mark_unbacked(tokens, 0)
    with torch.no_grad():
        logits = compiled(tokens)
    print(f"batch {batch} len {length} -> {logits.argmax(-1).tolist()}")
